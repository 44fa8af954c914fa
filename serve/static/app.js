// The page: one game per tab (its id in sessionStorage), talking to the server's JSON API.
"use strict";

const $ = (id) => document.getElementById(id);
const POLL_MS = 150;

const page = {
  info: null, games: {}, state: null, game: null, id: null,
  selected: null,       // square, or "hold:w:R"
  pending: null,        // overtaking: {from, via} waiting for the second leg
  fetchedAt: 0, polling: false, flipChosen: null,
};

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const res = await fetch(path, opts);
  const type = res.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) throw Object.assign(new Error(data.error || res.statusText), { status: res.status });
  return data;
}

function showError(text) { $("error").textContent = text || ""; }

// ------------------------------------------------------------------ setup
async function init() {
  page.info = await api("GET", "/api/info");
  for (const g of page.info.games) {
    page.games[g.name] = g;
    $("game-select").append(new Option(g.name, g.name));
  }
  for (const lv of page.info.levels) $("level-select").append(new Option(lv.label, lv.name));
  $("level-select").value = page.info.default_level;
  page.board = new BoardView($("board"), clickSquare, clickHolding, dropOn);
  $("game-select").addEventListener("change", updateForm);
  $("new-form").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
  $("level-select").addEventListener("change", changeLevel);
  $("end-turn").addEventListener("click", () => send("@@@@"));
  $("take-back").addEventListener("click", () => act("takeback"));
  $("resign").addEventListener("click", () => act("resign"));
  $("flip").addEventListener("click", () => { page.board.flipped = !page.board.flipped; page.flipChosen = true; render(); });
  $("copy-fen").addEventListener("click", () => exportText(page.state.fen));
  $("copy-pgn").addEventListener("click", async () => exportText(await api("GET", `/api/games/${page.id}/pgn`)));
  window.addEventListener("pagehide", () => { if (page.id) navigator.sendBeacon(`/api/games/${page.id}/close`); });
  setInterval(tickClocks, 200);

  const params = new URLSearchParams(location.search);
  if (params.get("game")) {
    $("game-select").value = params.get("game");
    if (params.get("side")) $("side-select").value = params.get("side");
    if (params.get("level")) $("level-select").value = params.get("level");
    if (params.get("fen")) $("fen-input").value = params.get("fen");
    if (params.get("seed")) $("seed-input").value = params.get("seed");
  }
  updateForm();
  const saved = sessionStorage.getItem("leyden-game");
  if (saved && !params.get("game")) {
    try { return show(await api("GET", `/api/games/${saved}`)); } catch (e) { /* expired: start anew */ }
  }
  await newGame();
}

function updateForm() {
  $("seed-label").hidden = !page.games[$("game-select").value].shuffle;
}

async function newGame() {
  showError("");
  const minutes = $("minutes-input").value;
  const body = {
    game: $("game-select").value, human: $("side-select").value, level: $("level-select").value,
    minutes: minutes === "" || Number(minutes) === 0 ? null : Number(minutes),
    increment: Number($("increment-input").value || 0),
  };
  if ($("fen-input").value.trim()) body.fen = $("fen-input").value.trim();
  if (!$("seed-label").hidden && $("seed-input").value !== "") body.seed = Number($("seed-input").value);
  try {
    const state = await api("POST", "/api/games", body);
    if (page.id) navigator.sendBeacon(`/api/games/${page.id}/close`);
    page.flipChosen = null;
    show(state);
  } catch (e) { showError(e.message); }
}

// ------------------------------------------------------------------ talking to the server
function show(state) {
  page.state = state;
  page.id = state.id;
  page.fetchedAt = performance.now();
  sessionStorage.setItem("leyden-game", state.id);
  if (!page.game || page.game.name !== state.game) {
    page.game = page.games[state.game];
    page.board.setGame(page.game);
    renderLegend();
  }
  if (page.flipChosen === null) page.board.flipped = state.human === "b";
  page.selected = null;
  page.pending = null;
  render();
  if (state.thinking && !page.polling) poll();
}

async function poll() {
  page.polling = true;
  while (true) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    let state;
    try { state = await api("GET", `/api/games/${page.id}`); } catch (e) { showError(e.message); break; }
    if (state.id !== page.id) break;
    if (state.version !== page.state.version || !state.thinking) show(state);
    else { page.state.clock = state.clock; page.fetchedAt = performance.now(); page.state.engine = state.engine; renderInfo(); }
    if (!state.thinking) break;
  }
  page.polling = false;
}

async function send(move) {
  showError("");
  try { show(await api("POST", `/api/games/${page.id}/move`, { move })); }
  catch (e) { showError(e.message); page.selected = null; page.pending = null; render(); }
}

async function act(what) {
  showError("");
  try { show(await api("POST", `/api/games/${page.id}/${what}`)); } catch (e) { showError(e.message); }
}

async function changeLevel() {
  if (!page.id) return;
  try { show(await api("POST", `/api/games/${page.id}/level`, { level: $("level-select").value })); }
  catch (e) { showError(e.message); }
}

function exportText(text) {
  const box = $("export");
  box.hidden = false;
  box.value = text;
  box.select();
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
}

// ------------------------------------------------------------------ choosing a move
function legal() { return (page.state.legal || []).map(parseMove); }

function ownPiece(sq) {
  const p = page.state.board[sq];
  return p && (p === p.toUpperCase() ? "w" : "b") === page.state.turn;
}

// Returns true when a drag may start from `sq`.
function clickSquare(sq) {
  if (page.pending) return clickSecondLeg(sq);
  const sel = page.selected;
  if (sel) {
    const moves = legal().filter((m) => fromOf(m) === sel && (m.to === sq || m.via === sq));
    if (moves.length) { choose(sel, sq, moves); return false; }
  }
  if (ownPiece(sq) && sq !== sel && legal().some((m) => m.from === sq)) {
    page.selected = sq;
    render();
    return true;
  }
  page.selected = null;
  render();
  return false;
}

function dropOn(sq) { if (page.selected) clickSquare(sq); }

function clickHolding(side, letter) {
  if (side !== page.state.turn) return;
  const key = `hold:${side}:${letter}`;
  page.pending = null;
  page.selected = page.selected !== key && legal().some((m) => m.kind === "drop" && m.piece === letter) ? key : null;
  render();
}

function fromOf(m) { return m.kind === "drop" ? `hold:${page.state.turn}:${m.piece}` : m.from; }

function choose(from, sq, moves) {
  const plain = moves.filter((m) => m.to === sq && m.kind !== "overtake");
  const jumps = moves.filter((m) => m.kind === "overtake" && m.via === sq);
  if (jumps.length) {
    // The jumped piece was clicked: the second leg (or a second click there: plain capture).
    page.pending = { from, via: sq, plain: plain.length ? plain[0].text : null };
    render();
    return;
  }
  const promos = plain.filter((m) => m.promo);
  if (promos.length > 1) return askPromotion(promos);
  send(plain[0].text);
}

function clickSecondLeg(sq) {
  const { from, via, plain } = page.pending;
  const jump = legal().find((m) => m.kind === "overtake" && m.from === from && m.via === via && m.to === sq);
  page.pending = null;
  if (jump) send(jump.text);
  else if (sq === via && plain) send(plain);
  else { page.selected = null; render(); }
  return false;
}

function askPromotion(moves) {
  const box = $("promo-choices");
  box.replaceChildren();
  for (const m of moves) {
    const letter = m.promo.toUpperCase();
    const b = document.createElement("button");
    b.className = "promo";
    b.dataset.piece = m.promo;
    b.title = page.board.names[letter];
    b.appendChild(pieceIcon(page.board.names[letter], letter, page.state.turn, 48));
    b.addEventListener("click", () => { $("promo-dialog").hidden = true; send(m.text); });
    box.appendChild(b);
  }
  $("promo-dialog").hidden = false;
}

function marks() {
  const out = [];
  const st = page.state;
  if (page.pending) {
    const { from, via, plain } = page.pending;
    for (const m of legal()) if (m.kind === "overtake" && m.from === from && m.via === via) out.push({ sq: m.to, kind: "leg2" });
    if (plain) out.push({ sq: via, kind: "capture" });
    return out;
  }
  if (!page.selected) return out;
  const mine = legal().filter((m) => fromOf(m) === page.selected);
  const vias = new Set(mine.filter((m) => m.kind === "overtake").map((m) => m.via));
  for (const m of mine) {
    if (m.kind === "overtake") out.push({ sq: m.via, kind: "via" });
    else if (vias.has(m.to)) continue;  // jumped piece: its cyan ring also offers the plain capture
    else if (m.promo) out.push({ sq: m.to, kind: "promo" });
    else if (st.board[m.to] && !ownPiece(m.to)) out.push({ sq: m.to, kind: "capture" });
    else out.push({ sq: m.to, kind: "move" });
  }
  return out;
}

// ------------------------------------------------------------------ drawing
function leydenTurn() {
  const st = page.state, turns = st.turns;
  for (let i = turns.length - 1; i >= 0; i--) {
    if (st.human === "none" || turns[i].side !== st.human) return turns[i];
  }
  return null;
}

function turnText(actions) {
  const shown = actions.length > 1 && actions[actions.length - 1] === "@@@@" ? actions.slice(0, -1) : actions;
  return shown.join(",");
}

function render() {
  const st = page.state;
  const last = leydenTurn();
  const arrows = [], highlight = new Set();
  if (last) {
    last.actions.forEach((a, i) => {
      const m = parseMove(a);
      if (m.kind === "end" || m.kind === "unknown") return;
      arrows.push({ from: m.from || null, to: m.to, n: i + 1 });
      if (m.from) highlight.add(m.from);
      highlight.add(m.to);
    });
  }
  page.board.draw(st, marks(), arrows, highlight, page.pending ? page.pending.from : page.selected);
  const enders = page.game.family === "enders";
  $("end-turn").hidden = !enders;
  $("end-turn").disabled = !st.legal.includes("@@@@");
  $("take-back").disabled = !st.can_take_back;
  $("resign").disabled = st.human === "none" || !!st.outcome;
  $("level-select").value = st.level;
  const out = $("outcome");
  out.hidden = !st.outcome;
  if (st.outcome) out.textContent = `${st.outcome.result}  ${st.outcome.reason}`;
  const side = st.turn === "w" ? "White" : "Black";
  let status;
  if (st.outcome) status = "Game over";
  else if (st.thinking) status = `Leyden (${side}) is thinking...`;
  else if (st.turn === st.human) status = enders ? `Your turn (${side}): drop, move pieces, then End turn` : `Your move (${side})`;
  else status = `${side} to move`;
  if (page.pending) status += " - click the landing square of the jump, or the piece again to capture it";
  if (st.seed !== null && st.seed !== undefined) status += ` - setup seed ${st.seed}`;
  $("status").textContent = status;
  const moves = $("moves");
  moves.replaceChildren();
  let li = null;
  for (const t of st.turns) {
    if (t.side === "w" || !li) {
      li = document.createElement("li");
      li.value = t.number;
      li.textContent = t.side === "b" ? "... " : "";
      moves.appendChild(li);
    }
    li.textContent += turnText(t.actions) + " ";
  }
  moves.scrollTop = moves.scrollHeight;
  if (last) {
    const who = st.human === "none" ? (last.side === "w" ? "White" : "Black") : "Leyden";
    $("leyden-turn").textContent = `${who}'s last turn: ` +
      last.actions.map((a, i) => `${i + 1}. ${a === "@@@@" ? "end turn" : a}`).join("  ");
  } else $("leyden-turn").textContent = "";
  renderInfo();
}

function renderInfo() {
  const e = page.state.engine;
  $("engine-info").textContent = !e ? "" : e.error ? e.error :
    `Leyden: depth ${e.depth}  ${e.score}  ${e.nodes} nodes` + (e.seconds !== undefined ? `  ${e.seconds} s` : "") + `  pv ${e.pv}`;
  tickClocks();
}

function fmt(seconds) {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60), r = s - 60 * m;
  return s < 10 ? `${m}:${r.toFixed(1).padStart(4, "0")}` : `${m}:${String(Math.floor(r)).padStart(2, "0")}`;
}

function tickClocks() {
  const st = page.state;
  if (!st) return;
  const c = st.clock, spent = (performance.now() - page.fetchedAt) / 1000;
  for (const side of ["w", "b"]) {
    const el = $(`clock-${side}`);
    el.classList.toggle("running", c.running === side);
    const left = c[side] - (c.running === side ? spent : 0);
    el.querySelector(".time").textContent = c.timed ? fmt(left) : "-";
    if (c.timed && c.running === side && left <= 0 && !page.polling && !st.outcome) {
      page.polling = true;  // the server declares the time forfeit
      api("GET", `/api/games/${page.id}`).then(show).catch((e) => showError(e.message)).finally(() => { page.polling = false; });
    }
  }
}

function renderLegend() {
  const box = $("legend");
  box.replaceChildren();
  for (const p of page.game.legend) {
    const row = document.createElement("div");
    row.className = "row";
    row.appendChild(pieceIcon(p.name, p.letter, "w", 30));
    row.appendChild(pieceIcon(p.name, p.letter, "b", 30));
    const t = document.createElement("span");
    t.innerHTML = `<b>${p.name}</b> (${p.letter}): ${p.text}`;
    row.appendChild(t);
    box.appendChild(row);
  }
}

init().catch((e) => showError(`cannot start: ${e.message}`));
