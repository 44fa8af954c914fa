// The board as SVG, drawn from the game record (files, ranks, holes, gates) and a state from
// the server (pieces, holdings, marks). Knows nothing of the rules: legal targets come from
// the server's list of legal moves.
"use strict";

let SQ = 60;        // pixels per square (set per game: big boards get smaller squares)
const MARGIN = 22;  // room for the coordinates
const HOLD_W = 84;  // holdings column (games with drops)

function sqName(f, r) { return "abcdefghijklmnop"[f] + (r + 1); }
function parseSq(name) { return [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1]; }

// Parse a move in the README's notation into its parts.
function parseMove(m) {
  if (m === "@@@@") return { kind: "end", text: m };
  let x = /^([A-Z])@([a-z]\d+)$/.exec(m);
  if (x) return { kind: "drop", piece: x[1], to: x[2], text: m };
  x = /^([a-z]\d+)([a-z]\d+),([a-z]\d+)([a-z]\d+)$/.exec(m);
  if (x) return { kind: "overtake", from: x[1], via: x[2], to: x[4], text: m };
  x = /^([a-z]\d+)([a-z]\d+)([a-z]?)$/.exec(m);
  if (x) return { kind: "move", from: x[1], to: x[2], promo: x[3], text: m };
  return { kind: "unknown", text: m };
}

class BoardView {
  constructor(svg, onSquare, onHolding, onDrop) {
    this.svg = svg;
    this.onSquare = onSquare;    // click or drag-start on a square
    this.onHolding = onHolding;  // click on a piece in hand
    this.onDrop = onDrop;        // drag released over another square
    this.flipped = false;
    this.drag = null;
    svg.addEventListener("pointerdown", (e) => this._down(e));
    svg.addEventListener("pointermove", (e) => this._move(e));
    svg.addEventListener("pointerup", (e) => this._up(e));
  }

  setGame(game) {
    this.game = game;
    SQ = Math.min(64, Math.floor(560 / Math.max(game.files, game.ranks)));
    this.names = {};
    for (const p of game.legend) this.names[p.letter] = p.name;
    this.holes = new Set(game.holes);
    this.gates = new Set(game.gates);
  }

  xy(name) {
    const [f, r] = parseSq(name);
    const col = this.flipped ? this.game.files - 1 - f : f;
    const row = this.flipped ? r : this.game.ranks - 1 - r;
    return [MARGIN + col * SQ, MARGIN + row * SQ];
  }

  // state: {board, holdings, moved, check}; marks: [{sq, kind}]; arrows: [{from, to, n}];
  // highlight: squares of the last turn; selected: square or "hold:w:R".
  draw(state, marks, arrows, highlight, selected) {
    const g = this.game, svg = this.svg;
    const width = 2 * MARGIN + g.files * SQ + (g.drops ? HOLD_W : 0);
    const height = 2 * MARGIN + g.ranks * SQ;
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.replaceChildren();
    svgEl("rect", { x: 0, y: 0, width, height, fill: "#d9d2c3" }, svg);
    for (let r = 0; r < g.ranks; r++) {
      for (let f = 0; f < g.files; f++) {
        const name = sqName(f, r);
        const [x, y] = this.xy(name);
        if (this.holes.has(name)) {
          svgEl("rect", { x, y, width: SQ, height: SQ, fill: "#8c8577", class: "hole" }, svg);
          continue;
        }
        let fill = (f + r) % 2 ? "#f0d9b5" : "#b58863";
        if (this.gates.has(name)) fill = "#e8c04a";
        if (highlight.has(name)) fill = (f + r) % 2 ? "#f6ec8a" : "#d8c34c";
        if (name === selected) fill = "#9fc98a";
        if (name === state.check) fill = "#e05a4a";
        svgEl("rect", { x, y, width: SQ, height: SQ, fill, class: "sq", "data-sq": name }, svg);
        if (this.gates.has(name)) {
          const t = svgEl("text", { x: x + 3, y: y + 11, "font-size": 9, class: "label", fill: "#5a4300" }, svg);
          t.textContent = "GATE";
        }
      }
    }
    this._coords(svg);
    const moved = new Set(state.moved || []);
    const charged = this._charged(state.board);
    for (const [name, p] of Object.entries(state.board)) {
      const [x, y] = this.xy(name);
      const side = p === p.toUpperCase() ? "w" : "b";
      const glyph = pieceGlyph(this.names[p.toUpperCase()], p, side, x + 6, y + 6, SQ - 12);
      glyph.setAttribute("data-piece-sq", name);
      if (moved.has(name)) glyph.setAttribute("opacity", 0.55);
      svg.appendChild(glyph);
      if (charged.has(name)) {
        svgEl("path", { d: `M${x + 50} ${y + 2} l-7 11 h5 l-4 9 l10 -12 h-5 l4 -8 z`,
                        fill: "#ffd400", stroke: "#6b5500", class: "label charged" }, svg);
      }
    }
    if (g.drops) this._holdings(svg, state.holdings, selected);
    for (const m of marks) this._mark(svg, m);
    for (const a of arrows) this._arrow(svg, a);
  }

  // Batteries: pieces next to a friendly Battery are charged (drawn with a bolt).
  _charged(board) {
    const out = new Set();
    if (this.game.family !== "batteries") return out;
    for (const [name, p] of Object.entries(board)) {
      if ("BbKk".includes(p)) continue;
      const [f, r] = parseSq(name);
      for (let df = -1; df <= 1; df++) for (let dr = -1; dr <= 1; dr++) {
        if (!df && !dr) continue;
        const n = board[sqName(f + df, r + dr)];
        if (f + df >= 0 && n && n === (p === p.toUpperCase() ? "B" : "b")) out.add(name);
      }
    }
    return out;
  }

  _coords(svg) {
    const g = this.game;
    for (let f = 0; f < g.files; f++) {
      const [x] = this.xy(sqName(f, 0));
      const t = svgEl("text", { x: x + SQ / 2, y: MARGIN + g.ranks * SQ + 16, "text-anchor": "middle",
                                "font-size": 13, class: "label" }, svg);
      t.textContent = "abcdefghijklmnop"[f];
    }
    for (let r = 0; r < g.ranks; r++) {
      const [, y] = this.xy(sqName(0, r));
      const t = svgEl("text", { x: MARGIN / 2, y: y + SQ / 2 + 5, "text-anchor": "middle",
                                "font-size": 13, class: "label" }, svg);
      t.textContent = r + 1;
    }
  }

  // Pieces in hand: the side at the top of the board above, the other below.
  _holdings(svg, holdings, selected) {
    const g = this.game, x0 = MARGIN + g.files * SQ + 12;
    const top = this.flipped ? "w" : "b";
    for (const side of ["w", "b"]) {
      const letters = Object.keys(holdings[side] || {});
      const title = svgEl("text", { x: x0, y: side === top ? MARGIN + 10 : MARGIN + g.ranks * SQ - letters.length * 48 - 8,
                                    "font-size": 12, class: "label" }, svg);
      title.textContent = (side === "w" ? "White" : "Black") + " in hand";
      letters.forEach((letter, i) => {
        const y = side === top ? MARGIN + 16 + i * 48 : MARGIN + g.ranks * SQ - (letters.length - i) * 48;
        const count = holdings[side][letter];
        const key = `hold:${side}:${letter}`;
        const cell = svgEl("g", { class: "hold", "data-side": side, "data-piece": letter, "data-count": count }, svg);
        svgEl("rect", { x: x0 - 4, y, width: 70, height: 44, rx: 5,
                        fill: key === selected ? "#9fc98a" : "#ece6d8", stroke: "#8c8577" }, cell);
        const glyph = pieceGlyph(this.names[letter], letter, side, x0, y + 2, 40);
        if (!count) glyph.setAttribute("opacity", 0.2);
        cell.appendChild(glyph);
        const t = svgEl("text", { x: x0 + 48, y: y + 28, "font-size": 16, "font-weight": 700 }, cell);
        t.textContent = "\u00d7" + count;
      });
    }
  }

  _mark(svg, m) {
    const [x, y] = this.xy(m.sq);
    const cx = x + SQ / 2, cy = y + SQ / 2;
    const colour = { move: "#1d6b2a", capture: "#c0392b", promo: "#b0009c", via: "#00a6c0", leg2: "#00a6c0" }[m.kind];
    const attrs = { class: `mark ${m.kind}`, "data-sq": m.sq };
    if (m.kind === "capture" || m.kind === "via")
      svgEl("circle", { cx, cy, r: SQ * 0.44, fill: "none", stroke: colour, "stroke-width": 5, ...attrs }, svg);
    else svgEl("circle", { cx, cy, r: SQ * 0.15, fill: colour, "fill-opacity": 0.75, ...attrs }, svg);
  }

  // Leyden's last turn: numbered arrows, in the order the actions were played.
  _arrow(svg, a) {
    const [tx, ty] = this.xy(a.to);
    const ex = tx + SQ / 2, ey = ty + SQ / 2;
    if (a.from) {
      const [fx, fy] = this.xy(a.from);
      const sx = fx + SQ / 2, sy = fy + SQ / 2;
      const len = Math.hypot(ex - sx, ey - sy) || 1;
      const ux = (ex - sx) / len, uy = (ey - sy) / len;
      const hx = ex - ux * 14, hy = ey - uy * 14;
      svgEl("line", { x1: sx, y1: sy, x2: hx, y2: hy, stroke: "#1f5fbf", "stroke-width": 6,
                      "stroke-opacity": 0.7, class: "arrow" }, svg);
      svgEl("path", { d: `M${ex} ${ey} L${hx - uy * 10} ${hy + ux * 10} L${hx + uy * 10} ${hy - ux * 10} Z`,
                      fill: "#1f5fbf", "fill-opacity": 0.8, class: "arrow" }, svg);
    }
    svgEl("circle", { cx: tx + SQ - 11, cy: ty + 11, r: 9, fill: "#1f5fbf", class: "arrow" }, svg);
    const t = svgEl("text", { x: tx + SQ - 11, y: ty + 15, "text-anchor": "middle", "font-size": 12,
                              fill: "#fff", "font-weight": 700, class: "arrow arrow-n" }, svg);
    t.textContent = a.n;
  }

  _target(e) {
    const hit = document.elementFromPoint(e.clientX, e.clientY);
    if (!hit) return null;
    const hold = hit.closest && hit.closest(".hold");
    if (hold) return { hold: hold };
    return hit.getAttribute && hit.getAttribute("data-sq") ? { sq: hit.getAttribute("data-sq") } : null;
  }

  _down(e) {
    const t = this._target(e);
    if (!t) return;
    if (t.hold) { this.onHolding(t.hold.dataset.side, t.hold.dataset.piece); return; }
    const startDrag = this.onSquare(t.sq);
    if (startDrag) {
      const glyph = this.svg.querySelector(`[data-piece-sq="${t.sq}"]`);
      if (glyph) this.drag = { from: t.sq, glyph, ghost: null, x: e.clientX, y: e.clientY };
    }
  }

  _move(e) {
    if (!this.drag) return;
    const d = this.drag;
    if (!d.ghost && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    if (!d.ghost) {
      d.ghost = d.glyph.cloneNode(true);
      d.ghost.removeAttribute("data-piece-sq");
      this.svg.appendChild(d.ghost);
      d.glyph.classList.add("dragging");
    }
    d.ghost.setAttribute("transform", `translate(${p.x - (SQ - 12) / 2},${p.y - (SQ - 12) / 2}) scale(${(SQ - 12) / 100})`);
  }

  _up(e) {
    const d = this.drag;
    this.drag = null;
    if (!d || !d.ghost) return;
    d.ghost.remove();
    d.glyph.classList.remove("dragging");
    const t = this._target(e);
    if (t && t.sq && t.sq !== d.from) this.onDrop(t.sq);
  }
}
