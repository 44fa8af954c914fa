// Piece images: a shape per piece name (so every piece of a game looks different) with its
// letter inside. White pieces are light with a dark letter, Black pieces dark with a light one.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";

// Outlines in a 100 x 100 box.
const SHAPES = {
  crown: "M14 84 L14 34 L32 54 L50 18 L68 54 L86 34 L86 84 Z",
  disc: "circle",
  tower: "M18 86 L18 20 L32 20 L32 32 L43 32 L43 20 L57 20 L57 32 L68 32 L68 20 L82 20 L82 86 Z",
  diamond: "M50 8 L90 50 L50 92 L10 50 Z",
  house: "M16 88 L16 44 L50 10 L84 44 L84 88 Z",
  pawn: "M26 88 L74 88 L64 60 A 20 20 0 1 0 36 60 Z",
  hexagon: "M50 6 L88 28 L88 72 L50 94 L12 72 L12 28 Z",
  octagon: "M32 8 L68 8 L92 32 L92 68 L68 92 L32 92 L8 68 L8 32 Z",
  triangle: "M50 6 L94 88 L6 88 Z",
  battery: "M8 24 H80 V38 H93 V62 H80 V76 H8 Z",
  star: "M50 4 L62 36 L96 36 L69 57 L80 92 L50 71 L20 92 L31 57 L4 36 L38 36 Z",
};

const SHAPE_OF = {
  King: "crown", President: "crown", Queen: "disc", Lady: "disc",
  Rook: "tower", Orthog: "tower", Bishop: "diamond", Diag: "diamond",
  Knight: "house", Equine: "house", Pawn: "pawn", Soldier: "pawn",
  Archbishop: "hexagon", Chancellor: "octagon", Courier: "triangle",
  Battery: "battery", Agent: "star",
};

function svgEl(tag, attrs, parent) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// A <g> drawing piece `name` (letter `letter`) of colour `side` ("w"/"b") in a box of `size`
// pixels with its top-left corner at (x, y).
function pieceGlyph(name, letter, side, x, y, size) {
  const g = svgEl("g", { class: "piece", transform: `translate(${x},${y}) scale(${size / 100})` });
  const white = side === "w";
  const style = { fill: white ? "#fffdf4" : "#2b2b2b", stroke: white ? "#222" : "#000", "stroke-width": 4,
                  "stroke-linejoin": "round" };
  const shape = SHAPES[SHAPE_OF[name] || "disc"];
  if (shape === "circle") svgEl("circle", { cx: 50, cy: 50, r: 40, ...style }, g);
  else svgEl("path", { d: shape, ...style }, g);
  const small = ["pawn", "star", "triangle"].includes(SHAPE_OF[name]);
  const text = svgEl("text", {
    x: SHAPE_OF[name] === "battery" ? 45 : 50, y: small ? 72 : 64, "text-anchor": "middle",
    "font-size": small ? 30 : 38, "font-weight": 700, "font-family": "sans-serif",
    fill: white ? "#222" : "#fff",
  }, g);
  text.textContent = letter.toUpperCase();
  return g;
}

// A small stand-alone <svg> of one piece (legend, promotion choices, holdings).
function pieceIcon(name, letter, side, size) {
  const svg = svgEl("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}` });
  svg.appendChild(pieceGlyph(name, letter, side, 0, 0, size));
  return svg;
}
