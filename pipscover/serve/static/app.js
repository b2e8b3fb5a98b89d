// The Pips page: draws the board and the tray, moves dominoes, and asks the server (the JSON API in the
// README) for days, files, new puzzles, hints, checks, reveals and counts. Plain JavaScript, no build step.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 60;
// Where the second half lies from the first, for each of a domino's four turns (clockwise).
const TURNS = [[0, 1], [1, 0], [0, -1], [-1, 0]];
const SPOTS = {nw: [0.28, 0.28], ne: [0.72, 0.28], w: [0.28, 0.5], c: [0.5, 0.5], e: [0.72, 0.5],
               sw: [0.28, 0.72], se: [0.72, 0.72]};
const FACES = [[], ["c"], ["nw", "se"], ["nw", "c", "se"], ["nw", "ne", "sw", "se"],
               ["nw", "ne", "c", "sw", "se"], ["nw", "ne", "w", "e", "sw", "se"]];

const $ = (id) => document.getElementById(id);
const key = (cell) => cell[0] + "," + cell[1];

// The game: the puzzle as the server sent it, the dominoes placed (tile = index in the tray), history.
let game = null;
let placed = [];
let undoStack = [];
let redoStack = [];
let hand = null;          // {tile, turn}: the domino being placed
let cursor = null;        // the keyboard's cell
let marked = null;        // {cells, kind: "hint" | "wrong"}
let difficulty = "easy";
let clock = {before: 0, since: Date.now(), done: null};  // seconds played before this visit; when; the solve's time
// How many dominoes a reveal has laid in this game (an answer once seen stays seen, whatever is taken back), and
// whether the board was finished with their help: that is no solve, and no solve's time is claimed or kept,
// whatever is taken back after (the timer says "Revealed" for good, as a solve's keeps its time).
let revealed = 0;
let finishedByReveal = false;
// Whether the player closed the solved (or revealed) screen of the board as it is: a reload shows the board, not
// the screen again; a board finished anew shows it again.
let solvedClosed = false;
let trayStop = 0;         // the tray's one tab stop: the domino the arrow keys last went to
let statsShown = 0;       // which stats request the list shows (a newer puzzle's replaces it)

// ---- talking to the server ----

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {  // no answer at all, which the browser calls "Failed to fetch"
    throw new Error("The server cannot be reached: is pipscover serve still running?");
  }
  const answer = await response.json().catch(() => ({error: "The server's answer was not JSON."}));
  if (!response.ok) throw new Error(answer.error || "The server said " + response.status + ".");
  return answer;
}

// An answer about a position no longer on the board is of no use, and `Moved` is thrown instead: a reveal
// answered after the player had placed a domino laid its own over it, two dominoes on the same cells. (Its
// message is empty when another puzzle is played by then: nothing to say about this one.)
class Moved extends Error {}

async function question(path, extra) {
  const asked = game, position = JSON.stringify(placementsJson());
  const answer = await api(path, Object.assign({puzzle: game.puzzle, placed: JSON.parse(position)}, extra || {}));
  if (game !== asked) throw new Moved("");
  if (JSON.stringify(placementsJson()) !== position) {
    throw new Moved("The board changed while the server was answering; ask again.");
  }
  return answer;
}

function placementsJson() {
  return placed.map((p) => ({domino: p.domino, cells: p.cells}));
}

// ---- remembering the position across reloads (per puzzle; the tab remembers its puzzle) ----

function gameKey(view) {
  const text = JSON.stringify(view.puzzle);
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return "pipscover:game:" + (hash >>> 0).toString(36);
}

function save() {
  if (!game) return;
  localStorage.setItem(gameKey(game), JSON.stringify({placed, undoStack, redoStack, seconds: played(),
                                                       done: clock.done, revealed, finishedByReveal, solvedClosed}));
}

function restore(view) {
  try {
    const saved = JSON.parse(localStorage.getItem(gameKey(view)) || "null");
    if (saved && Array.isArray(saved.placed)) return saved;
  } catch (error) { /* a damaged entry is a fresh game */ }
  return {placed: [], undoStack: [], redoStack: []};
}

// ---- the timer: seconds played on this puzzle, kept with the position; it stops when the puzzle is solved, and
// says "Revealed" once the board is finished by reveals ----

function played() {
  return clock.done !== null ? clock.done : clock.before + Math.floor((Date.now() - clock.since) / 1000);
}

function minutes(seconds) {
  return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
}

function tick() {
  if (game) $("timer").textContent = finishedByReveal ? "Revealed" : minutes(played());
}

// ---- starting a game ----

function start(view) {
  game = view;
  const saved = restore(view);
  placed = saved.placed; undoStack = saved.undoStack; redoStack = saved.redoStack;
  clock = {before: saved.seconds || 0, since: Date.now(), done: saved.done === undefined ? null : saved.done};
  revealed = saved.revealed || 0;
  finishedByReveal = saved.finishedByReveal === true;
  solvedClosed = saved.solvedClosed === true;
  hand = null; marked = null;
  // (a puzzle opened from the solved screen by the keyboard finds the board in focus: its arrows need a cell)
  cursor = document.activeElement === $("board") ? firstCell() : null;
  // (the difficulty of a day or a file is the one its buttons choose; a made puzzle's is the one asked of the
  // generator, no choice of theirs, which its title says beside its rating)
  if (view.origin && view.origin.difficulty && !("asked" in view)) chooseDifficulty(view.origin.difficulty);
  if (view.origin && view.origin.date) $("day").value = view.origin.date;
  sessionStorage.setItem("pipscover:view", JSON.stringify(view));
  localStorage.setItem("pipscover:last", JSON.stringify(view));
  showTitle(view.title);
  $("play").hidden = false;
  $("skip").hidden = false;
  showChooser(false);
  $("solved").hidden = true;
  $("timer").hidden = false;
  say("");
  tick();
  draw();
  loadStats();
  if (placed.length === game.dominoes.length) checkPosition();
}

// A title's last bracket says which of a day's puzzles it is and how hard (a made puzzle's: its rating and the
// difficulty asked): a long name may be cut to two lines, never that (on a phone it cut "(rated hard; ...").
function showTitle(title) {
  const [, name, detail] = /^(.*\S) (\([^()]*\))$/s.exec(title) || [null, title, ""];
  $("title").replaceChildren(element("span", {class: "title-name"}, name));
  // (the space is not shown, the flex gap is, but a copy of the title, or a screen reader, keeps it)
  if (detail) $("title").append(" ", element("span", {}, detail));
}

// A count as the page shows it: exact, a lower bound, or nothing when the deadline came first.
function counted(c) {
  const number = Number(c.count).toLocaleString("en-US");
  if (c.exact) return number;
  return c.count === "0" ? "not counted in time" : "at least " + number + " (not counted in time)";
}

// The stats in a player's words: a pip layout is what a solution puts on the cells (two solutions that differ
// only in where a domino's edge lies share one), and the rating is pipscover's own, by the hints' steps, which may
// differ from the NYT's label of the day's puzzle (its difficulty, said beside it).
const STATS = [["Solutions", "Ways to lay the dominoes that keep every rule"],
               ["Different pip layouts", "Solutions that put the same pips on every cell count once"],
               ["pipscover's rating", "By the number of steps pipscover's hints take to solve it"]];

function showStats(values, kind) {
  $("stats").replaceChildren(...STATS.flatMap(([name, meaning], index) => [
    element("dt", {title: meaning}, name), element("dd", kind ? {class: kind} : {}, values[index])]));
}

function rated(stats) {
  if (!stats.rating) return "not rated in time";
  const guesses = !stats.guesses ? "" : `, ${stats.guesses} of them ${stats.guesses === 1 ? "a guess" : "guesses"}`;
  // (a made puzzle's difficulty is the one asked of the generator, no one's label: its title says it)
  const nyt = game.origin && game.origin.date && game.origin.difficulty && !("asked" in game)
    ? "; the NYT says " + game.origin.difficulty : "";
  return `${stats.rating} (${stats.steps} hint steps${guesses})${nyt}`;
}

async function loadStats() {
  const shown = ++statsShown;
  const started = Date.now();
  const progress = () => showStats(["counting… " + Math.floor((Date.now() - started) / 1000) + " s", "…", "…"],
                                   "counting");
  progress();
  const ticking = setInterval(() => { if (shown === statsShown) progress(); }, 1000);
  try {
    const stats = await api("/api/stats", {puzzle: game.puzzle, placed: []});
    if (shown === statsShown) showStats([counted(stats.solutions), counted(stats.grids), rated(stats)]);
  } catch (error) {
    if (shown === statsShown) $("stats").replaceChildren(element("dt", {}, "Counts"), element("dd", {}, error.message));
  } finally {
    clearInterval(ticking);
  }
}

// ---- drawing ----

function element(name, attributes, text) {
  const made = document.createElement(name);
  for (const [k, v] of Object.entries(attributes)) made.setAttribute(k, v);
  if (text !== undefined) made.textContent = text;
  return made;
}

function svg(name, attributes, parent) {
  const made = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) made.setAttribute(k, v);
  if (parent) parent.append(made);
  return made;
}

function boardCells() {
  return game.regions.flatMap((region) => region.cells);
}

// Where the keyboard's cursor starts: the board's top row, its leftmost cell.
function firstCell() {
  return boardCells().slice().sort((a, b) => a[0] - b[0] || a[1] - b[1])[0];
}

function draw() {
  drawBoard();
  drawTray();
  $("undo").disabled = !undoStack.length;
  $("redo").disabled = !redoStack.length;
  $("clear").disabled = !placed.length;  // (on an empty board it looked like it would do something, and did nothing)
  $("turn").disabled = hand === null;
  $("put-back").disabled = hand === null;
}

function drawBoard() {
  const cells = boardCells();
  const top = Math.min(...cells.map((c) => c[0])), left = Math.min(...cells.map((c) => c[1]));
  const rows = Math.max(...cells.map((c) => c[0])) - top + 1, columns = Math.max(...cells.map((c) => c[1])) - left + 1;
  const margin = CELL * 0.45;
  const at = (cell) => [margin + (cell[1] - left) * CELL, margin + (cell[0] - top) * CELL];
  const width = 2 * margin + columns * CELL, height = 2 * margin + rows * CELL;
  const picture = svg("svg", {viewBox: `0 0 ${width} ${height}`, class: "board-svg", role: "img",
                              "aria-label": game.title});
  picture.style.maxWidth = width * 1.4 + "px";
  const owner = new Map();
  game.regions.forEach((region, index) => region.cells.forEach((cell) => owner.set(key(cell), index)));
  const defs = svg("defs", {}, picture);
  game.regions.forEach((region, index) => {
    // One shape per region: its cells meet edge to edge, with a faint line between two of them.
    let inner = "";
    for (const cell of region.cells) {
      const [x, y] = at(cell);
      svg("rect", {x, y, width: CELL, height: CELL, fill: region.fill, class: "cell", "data-cell": key(cell)}, picture);
      if (owner.get(key([cell[0], cell[1] + 1])) === index) inner += `M${x + CELL} ${y + 6}v${CELL - 12}`;
      if (owner.get(key([cell[0] + 1, cell[1]])) === index) inner += `M${x + 6} ${y + CELL}h${CELL - 12}`;
    }
    if (inner) svg("path", {d: inner, class: "cell-line"}, picture);
    if (!region.outline) return;
    const clip = svg("clipPath", {id: "clip-" + index}, defs);
    svg("path", {d: region.cells.map((c) => { const [x, y] = at(c); return `M${x} ${y}h${CELL}v${CELL}h-${CELL}z`; }).join("")}, clip);
    let edges = "";
    for (const [r, c] of region.cells) {
      const [x, y] = at([r, c]);
      if (owner.get(key([r - 1, c])) !== index) edges += `M${x} ${y}h${CELL}`;
      if (owner.get(key([r + 1, c])) !== index) edges += `M${x} ${y + CELL}h${CELL}`;
      if (owner.get(key([r, c - 1])) !== index) edges += `M${x} ${y}v${CELL}`;
      if (owner.get(key([r, c + 1])) !== index) edges += `M${x + CELL} ${y}v${CELL}`;
    }
    svg("path", {d: edges, fill: "none", stroke: region.outline, "stroke-width": 7, "stroke-dasharray": "7 4",
                 "clip-path": `url(#clip-${index})`, class: "region-edge"}, picture);
  });
  const spot = hand !== null && cursor ? spotFor(hand, cursor) : null;
  placed.forEach((placement, index) => {
    // (faded under the one in hand where that would replace it: the hover shows it before the click)
    const kind = spot && spot.fits && spot.replaces === index ? "placed replaced" : "placed";
    const group = drawDomino(picture, placement.domino, placement.cells.map(at), kind);
    group.setAttribute("data-placed", index);
    group.setAttribute("aria-label", `domino ${placement.domino.join("-")} on ${placement.cells.map(key).join(" and ")}`);
  });
  // A hint's cells, or a wrong domino's, marked over the dominoes, see-through: a hint names a region's covered
  // cells too, and under the dominoes the mark showed nothing.
  if (marked) {
    for (const cell of marked.cells) {
      const [x, y] = at(cell);
      svg("rect", {x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6,
                   class: marked.kind === "wrong" ? "mark wrong-cell" : "mark hint-cell"}, picture);
    }
  }
  if (spot) drawDomino(picture, spot.domino, spot.cells.map(at), spot.fits ? "ghost" : "ghost misfit");
  if (cursor && $("board").matches(":focus-visible")) {  // (the keyboard's: not after a click or a tap)
    const [x, y] = at(cursor);
    svg("rect", {x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 6, class: "cursor"}, picture);
  }
  // As in the NYT, a rule's diamond sits on the outer corner of its region's last cell.
  game.regions.forEach((region) => {
    if (!region.label) return;
    const last = region.cells.reduce((a, b) => (b[0] > a[0] || (b[0] === a[0] && b[1] > a[1]) ? b : a));
    const [x, y] = at(last);
    const r = CELL * (0.2 + 0.055 * region.label.length);
    const group = svg("g", {class: "label"}, picture);
    const cx = x + CELL, cy = y + CELL;
    svg("polygon", {points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}`,
                    fill: region.outline}, group);
    const text = svg("text", {x: cx, y: cy + CELL * 0.09, "text-anchor": "middle", "font-size": CELL * 0.26}, group);
    text.textContent = region.label;
    svg("title", {}, group).textContent = region.name || region.rule;
  });
  const board = $("board");
  board.replaceChildren(picture);
  board.dataset.cursor = cursor ? key(cursor) : "";
  if (cursor && document.activeElement === board) sayCursor(top, left);
}

// The keyboard's cell told to a screen reader (a live region: the board is one focus, a drawing) when it changes;
// left as it was when the board loses the focus (a domino placed by Enter is told as the focus goes to the tray).
function sayCursor(top, left) {
  const said = cursorSaid(cursor, top, left);
  if ($("cursor-said").textContent !== said) $("cursor-said").textContent = said;
}

// The cell in words: where it is from the board's top left, its region and rule as the hints name them, and what
// lies on it, or would.
function cursorSaid(cell, top, left) {
  const region = game.regions.find((r) => r.cells.some((c) => key(c) === key(cell)));
  const where = `Row ${cell[0] - top + 1}, column ${cell[1] - left + 1}, ${region.name}`;
  const on = placed.find((p) => p.cells.some((c) => key(c) === key(cell)));
  const half = on && key(on.cells[0]) !== key(cell) ? 1 : 0;
  const lies = on ? `${on.domino[half]} of the domino ${on.domino.join("-")}` : "empty";
  if (hand === null) return `${where}: ${lies}.`;
  const spot = spotFor(hand, cell);
  // (Enter on a placed domino puts the one in hand in its place, `place`: said before, as the hover shows it)
  const goes = !spot.fits ? "does not fit here" : on ? "would take its place" : "fits here";
  return `${where}: ${lies}; the domino ${spot.domino.join("-")} in hand ${goes}.`;
}

function drawDomino(parent, domino, corners, kind) {
  const group = svg("g", {class: "domino " + kind}, parent);
  const [[x1, y1], [x2, y2]] = corners;
  const left = Math.min(x1, x2), top = Math.min(y1, y2);
  const inset = 4;
  svg("rect", {x: left + inset, y: top + inset, width: Math.abs(x2 - x1) + CELL - 2 * inset,
               height: Math.abs(y2 - y1) + CELL - 2 * inset, rx: 10, class: "tile"}, group);
  if (x1 !== x2) svg("line", {x1: Math.max(x1, x2), y1: top + 14, x2: Math.max(x1, x2), y2: top + CELL - 14, class: "divider"}, group);
  else svg("line", {x1: left + 14, y1: Math.max(y1, y2), x2: left + CELL - 14, y2: Math.max(y1, y2), class: "divider"}, group);
  corners.forEach(([x, y], half) => drawPips(group, domino[half], x, y));
  return group;
}

function drawPips(parent, pip, x, y) {
  if (pip <= 6) {
    for (const name of FACES[pip]) {
      const [u, v] = SPOTS[name];
      svg("circle", {cx: x + u * CELL, cy: y + v * CELL, r: CELL * 0.075, class: "pip"}, parent);
    }
  } else {
    const text = svg("text", {x: x + CELL / 2, y: y + CELL * 0.62, "text-anchor": "middle", "font-size": CELL * 0.42,
                              class: "pip-number"}, parent);
    text.textContent = pip;
  }
}

function drawTray() {
  const tray = $("tray");
  tray.replaceChildren();
  const used = new Set(placed.map((p) => p.tile));
  const free = game.dominoes.map((_, tile) => tile).filter((tile) => !used.has(tile));
  if (!free.includes(trayStop)) trayStop = free[0];
  tray.hidden = !free.length;  // (an empty box stood beside, or under, the finished board)
  game.dominoes.forEach((domino, tile) => {
    const held = hand && hand.tile === tile;
    const button = element("button", {type: "button", class: "tray-domino" + (held ? " held" : ""),
                                      "data-tile": tile, role: "option", "aria-selected": held ? "true" : "false",
                                      "aria-label": `domino ${domino[0]}-${domino[1]}`});
    button.tabIndex = tile === trayStop ? 0 : -1;
    if (used.has(tile)) {
      button.classList.add("used");
      button.disabled = true;
      button.setAttribute("aria-hidden", "true");
    }
    const turn = held ? hand.turn : 0;
    const shown = turn >= 2 ? [domino[1], domino[0]] : domino;
    // Every domino of the tray in a box of the same size, a turned one upright at half size in the middle: a taller
    // box grew its row, and the buttons under the tray moved away from the finger between two taps on Turn.
    const picture = svg("svg", {viewBox: `0 0 ${2 * CELL} ${CELL}`});
    if (turn % 2 === 0) drawDomino(picture, shown, [[0, 0], [CELL, 0]], "in-tray");
    else drawDomino(svg("g", {transform: `translate(${CELL * 0.75} 0) scale(0.5)`}, picture), shown,
                    [[0, 0], [0, CELL]], "in-tray");
    button.append(picture);
    tray.append(button);
  });
}

// ---- moving dominoes ----

function onBoard(cell) {
  return boardCells().some((c) => c[0] === cell[0] && c[1] === cell[1]);
}

function covered(cell, except) {
  return placed.some((p, i) => i !== except && p.cells.some((c) => c[0] === cell[0] && c[1] === cell[1]));
}

// Where the domino in hand would lie with its left (top) half, as the tray draws it, on `cell`, and whether it fits
// there. (Turned twice or three times its first half is its right (bottom) one: laid by that, a tap put it a cell left
// of, or above, the cell tapped, and a phone shows no preview before the tap.) A domino placed on `cell` is the one it
// replaces (`replaces`, its index, else -1): with a domino in hand a tap on the board puts it there, and a tap on a
// placed one had silently taken that one up instead, the one in hand back to the tray.
function spotFor(inHand, cell) {
  const [dr, dc] = TURNS[inHand.turn];
  const first = dr + dc < 0 ? [cell[0] - dr, cell[1] - dc] : cell;
  const cells = [first, [first[0] + dr, first[1] + dc]];
  const replaces = placed.findIndex((p) => p.cells.some((c) => key(c) === key(cell)));
  return {domino: game.dominoes[inHand.tile], cells, replaces,
          fits: cells.every((c) => onBoard(c) && !covered(c, replaces))};
}

function remember() {
  undoStack.push(JSON.stringify(placed));
  if (undoStack.length > 500) undoStack.shift();
  redoStack = [];
}

function changed() {
  // The red box goes with the domino it named, and what was said of the board as it was (solved, revealed,
  // every domino placed, right so far, a domino replaced) with that board, as does Reveal all's question about it.
  if ((marked && marked.kind === "wrong") || $("message").matches(".good, .replaced")) say("");
  if ($("message").classList.contains("asking")) unask();
  marked = null;
  $("solved").hidden = true;
  solvedClosed = false;
  save();
  draw();
  if (placed.length === game.dominoes.length) checkPosition();
}

// (a phone has no R key: the Turn button is named first)
const MISFIT = "It does not fit there: both halves need free cells of the board. Turn it with Turn (or R).";

function place(cell) {
  if (hand === null) return false;
  const spot = spotFor(hand, cell);
  if (!spot.fits) {
    say(MISFIT, "warning tried");
    // (in red where it was tried, as a mouse's hover shows it before the click: a tap, on a phone under a tall
    // board, showed nothing, the message below the screen's bottom edge)
    drawBoard();
    bringIntoView($("message"), ".misfit");
    return false;
  }
  remember();
  const replaced = spot.replaces >= 0 ? placed.splice(spot.replaces, 1)[0] : null;
  placed.push({tile: hand.tile, domino: spot.domino, cells: spot.cells});
  hand = null;
  $("how-to-play").open = false;  // (the player knows how now: kept folded, as a choice, by its toggle)
  say("");
  changed();
  if (replaced) {
    const [back, put] = [replaced, placed.at(-1)].map((p) => game.dominoes[p.tile].join("-"));
    say(`The domino ${back} is back in the tray, ${put} in its place; Undo puts ${back} back.`, "replaced");
    bringIntoView($("message"), `[data-placed="${placed.length - 1}"]`);
  }
  return true;
}

function takeBack(index, keepInHand) {
  const placement = placed[index];
  remember();
  placed.splice(index, 1);
  const domino = game.dominoes[placement.tile];
  const [dr, dc] = [placement.cells[1][0] - placement.cells[0][0], placement.cells[1][1] - placement.cells[0][1]];
  let turn = TURNS.findIndex(([r, c]) => r === dr && c === dc);
  // The tray keeps each tile as the puzzle lists it; a tile placed the other way round was turned twice more.
  if (placement.domino[0] !== domino[0] || placement.domino[1] !== domino[1]) turn = (turn + 2) % 4;
  hand = keepInHand ? {tile: placement.tile, turn} : null;
  changed();
}

function take(tile) {
  if (placed.some((p) => p.tile === tile)) return;
  trayStop = tile;
  hand = hand && hand.tile === tile ? {tile, turn: (hand.turn + 1) % 4} : {tile, turn: 0};
  draw();
  sayTried();
}

// The domino in hand back in the tray (Put back, Escape): a phone has no Escape, and one in hand could only be
// placed, or another taken.
function putBack() {
  if (hand === null) return;
  hand = null;
  draw();
}

function turnHand() {
  if (hand === null) return;
  hand = {tile: hand.tile, turn: (hand.turn + 1) % 4};
  draw();
  sayTried();
}

// Turned where it was tried and did not fit, the domino in hand is said to fit there now, or still not: on a touch
// screen, with no hover, "It does not fit there" stayed over it drawn there turned and fitting, and it looked placed.
function sayTried() {
  if (!$("message").classList.contains("tried") || !cursor) return;
  if (spotFor(hand, cursor).fits) say("It fits there now: tap it (or press Enter) to place it.", "tried");
  else say(MISFIT, "warning tried");
}

// The server's placements, each laid with a free tile of the same domino; how many were laid.
function applyPlacements(found) {
  const before = placed.length;
  const free = new Set(game.dominoes.map((_, tile) => tile).filter((tile) => !placed.some((p) => p.tile === tile)));
  for (const placement of found) {
    const [a, b] = placement.domino;
    const tile = [...free].find((t) => {
      const [x, y] = game.dominoes[t];
      return (x === a && y === b) || (x === b && y === a);
    });
    if (tile === undefined) continue;
    free.delete(tile);
    placed.push({tile, domino: placement.domino, cells: placement.cells});
  }
  return placed.length - before;
}

// Undo and redo: go back to the position on top of one stack, keeping the present on the other.
function travel(from, to) {
  if (!from.length) return;
  to.push(JSON.stringify(placed));
  placed = JSON.parse(from.pop());
  hand = null;
  changed();
}
const undo = () => travel(undoStack, redoStack);
const redo = () => travel(redoStack, undoStack);

// ---- the server's help ----

let said = 0;  // how many times a message was shown or cleared (`busy` brings a new one onto the screen)

function say(text, kind, title) {
  said++;
  // Until a game is shown its panel is hidden, and the message goes under the chooser, where it is seen.
  const box = $("play").hidden ? $("notice") : $("message");
  $("notice").replaceChildren();
  $("message").replaceChildren();
  box.className = "message" + (kind ? " " + kind : "");
  if (title) box.append(element("strong", {}, title));
  if (text) box.append(element("span", {}, text));
}

function showStep(step) {
  if (!step) {
    say("Every domino is placed.", "good");
    return;
  }
  const wrong = step.rule === "wrong-placement" || step.rule === "no-solution";
  marked = {cells: step.cells, kind: wrong ? "wrong" : "hint"};
  // (a puzzle without a solution is no one's mistake on the board: it said "Wrong" on an empty one)
  say(step.reason, wrong ? "bad" : "hint", step.rule === "wrong-placement" ? "Wrong" : capital(step.title));
  drawBoard();
}

// The next domino of a solution that keeps the board, or all of them, laid (one step of undo); else the wrong
// domino named, or what the server says.
async function reveal(every) {
  const answer = await question("/api/reveal", {all: every});
  if (answer.placements.length) {
    remember();
    revealed += applyPlacements(answer.placements);
    hand = null;
    changed();
    // (on a phone, under a large board, the button is far below the domino it laid)
    $("board").querySelector(`[data-placed="${placed.length - 1}"]`).scrollIntoView({block: "nearest"});
  } else if (answer.step) showStep(answer.step);
  else say(answer.message || "Every domino is placed.", answer.message ? "bad" : "good");
}

// Reveal all is asked first, in the message under the buttons, Keep playing in focus: one mis-tap laid the answer
// over the board, and a game once revealed is no solve, whatever Undo takes back (so Undo could not mend it).
function askRevealAll() {
  const lost = clock.done === null ? ", and this game will not count as solved" : "";
  say(`The answer's dominoes are laid on every free cell${lost}.`, "warning asking", "Reveal all?");
  const choices = element("div", {class: "tools"});
  const keep = element("button", {type: "button", id: "reveal-all-no"}, "Keep playing");
  const sure = element("button", {type: "button", id: "reveal-all-yes", class: "primary"}, "Reveal all");
  keep.addEventListener("click", unask);
  sure.addEventListener("click", () => {
    say("");
    busy($("reveal-all"), () => reveal(true));
  });
  choices.append(keep, sure);
  $("message").append(choices);
  keep.focus();
}

// The question taken back (Keep playing, Escape, or the board changed): the focus, if it was on the question,
// goes back to Reveal all, not to the page's top.
function unask() {
  const answering = $("message").contains(document.activeElement);
  say("");
  if (answering) $("reveal-all").focus();
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

async function busy(button, work) {
  button.disabled = true;
  document.body.classList.add("waiting");
  const before = said;
  try {
    await work();
  } catch (error) {
    if (error.message) say(error.message, "bad");
  } finally {
    button.disabled = false;
    document.body.classList.remove("waiting");
    // A new answer is brought onto the screen: on a phone the panel is under the board and the tray, and the
    // message of a hint asked under a large board was below the screen's bottom edge.
    const box = [$("message"), $("notice")].find((shown) => shown.childNodes.length && shown.offsetParent);
    if (box && said !== before) bringIntoView(box, ".mark");
  }
}

// `box` scrolled onto the screen with what it says of the board (`marked`, a selector: a hint's cells, a wrong
// domino's, a domino where it does not fit) where both fit, else that at the top, the message under it as far as
// it fits: on a phone, under a tall board, the message brought up alone pushed a hint's cells off the top of the
// screen.
function bringIntoView(box, marked) {
  const marks = [...$("board").querySelectorAll(marked)].map((mark) => mark.getBoundingClientRect());
  if (!marks.length) {
    box.scrollIntoView({block: "nearest"});
    return;
  }
  const room = parseFloat(getComputedStyle(box).scrollMarginTop) || 0;  // (the room the message keeps around it)
  const message = box.getBoundingClientRect(), cells = Math.min(...marks.map((mark) => mark.top));
  const top = Math.min(cells, message.top), bottom = Math.max(...marks.map((mark) => mark.bottom), message.bottom);
  if (bottom - top > innerHeight - 2 * room) window.scrollBy(0, cells - room);
  else if (top < room) window.scrollBy(0, top - room);
  else if (bottom > innerHeight - room) window.scrollBy(0, bottom - innerHeight + room);
}

async function checkPosition() {
  const answer = await question("/api/check").catch((error) => ({status: "error", error}));
  if (answer.error instanceof Moved) return;  // (a full board is checked again as it is now)
  if (answer.status === "solved") {
    finished();
  } else if (answer.status === "wrong") {
    showStep(answer.step);
    // (a board checked as it was filled, with no button's `busy` to bring it: on a phone under a tall board the
    // message was at the screen's bottom edge, the red box alone on the screen)
    bringIntoView($("message"), ".mark");
  } else if (answer.status === "right") {
    say(placed.length ? "Everything so far is right." : "The board is empty.", "good");
  } else {
    say(answer.error.message, "bad");
  }
}

// The board is full and every region holds: solved, with its time, by a player who laid every domino; else
// revealed, with no time (`revealed`).
function finished() {
  const total = game.dominoes.length;
  finishedByReveal = revealed > 0 && clock.done === null;
  if (finishedByReveal) {
    say(`${revealed} of ${total} ${total === 1 ? "domino was" : "dominoes were"} revealed: no solve, no time.`,
        "good", "Revealed");
    $("solved-title").textContent = "Revealed";
    $("solved-time").textContent = `${game.title}: the answer was shown, not found`;
  } else {
    if (clock.done === null) clock.done = played();
    say("Every region holds.", "good", "Solved!");
    $("solved-title").textContent = "Solved!";
    $("solved-time").textContent = `${game.title} in ${minutes(clock.done)}`;
  }
  // (the way on stays under what is said once the screen is closed: it went with the screen, and a player who
  // closed it to look at the finished board had only the chooser to go on with)
  const onward = element("button", {type: "button", class: "primary next-puzzle", hidden: ""});
  onward.addEventListener("click", playNext);
  $("message").append(onward);
  offerNext();
  save();
  tick();
  if (solvedClosed) return;
  $("solved").hidden = false;
  $("solved-close").focus();
}

// The way on from a day's puzzle in the cache, as the day's choices load it: the day's next difficulty, after its
// hardest the nearest later day's first (else the nearest earlier day's); null for a file's or a made puzzle
// that is no cached day's.
function nextPuzzle() {
  const days = [...$("cached-days").options].map((option) => option.value);
  const date = game.origin && game.origin.date;
  if ("asked" in game || !days.includes(date)) return null;
  const order = difficulties(), after = order.indexOf(game.origin.difficulty) + 1;
  if (after > 0 && after < order.length) return {date, difficulty: order[after]};
  const day = days.find((other) => other > date) || days.filter((other) => other < date).pop();
  return day ? {date: day, difficulty: order[0]} : null;
}

// The way on from a finished board (the solved screen's, the message's), as the days' list has it: a screen shown
// before the list arrived (a reload of a finished board, the list slow) had none, and gets it when the list comes
// (`loadDays`).
function offerNext() {
  const next = nextPuzzle();
  for (const button of document.querySelectorAll(".next-puzzle")) {
    button.hidden = !next;
    if (next) button.textContent = `Play ${next.date} (${next.difficulty})`;
  }
}

function playNext() {
  const next = nextPuzzle();
  closeSolved();
  $("day").value = next.date;
  chooseDifficulty(next.difficulty);
  $("pick-day").requestSubmit();
}

// ---- choosing a puzzle ----

// On a phone the choices fold away while a puzzle is played; the header's button opens them again.
function showChooser(open) {
  $("chooser").classList.toggle("folded", !open);
  $("chooser-toggle").setAttribute("aria-expanded", open ? "true" : "false");
}

async function loadDays() {
  try {
    const {days} = await api("/api/days");
    const list = $("cached-days");
    list.replaceChildren(...days.map((day) => element("option", {value: day})));
    if (!$("day").value && days.length) $("day").value = days[days.length - 1];
    if (game) offerNext();
  } catch (error) { /* no cache yet: any date can still be typed */ }
}

// A choice (the day's difficulty, the new puzzle's size and difficulty) is kept as the puzzle is, the tab's else
// the last one's (`chosenBefore`): a reload showed a made puzzle with Easy, 8 dominoes and any difficulty chosen,
// whatever was before.
function keepChoice(name, value) {
  sessionStorage.setItem("pipscover:" + name, value);
  localStorage.setItem("pipscover:" + name, value);
}

// The choice kept under `name` if it is still one of `values`, else null. (An empty one, "any difficulty", is a
// choice too: the tab's is not passed over for the last one's.)
function chosenBefore(name, values) {
  const value = sessionStorage.getItem("pipscover:" + name) ?? localStorage.getItem("pipscover:" + name);
  return values.includes(value) ? value : null;
}

// A day's difficulties, easiest first, as its buttons name them.
function difficulties() {
  return [...document.querySelectorAll("[data-difficulty]")].map((button) => button.dataset.difficulty);
}

const MAKE_MENUS = ["make-size", "make-difficulty"];  // the new puzzle's choices, each kept under its id

// The difficulties are a radio group (WAI-ARIA's pattern): one tab stop, the chosen one (a roving tabindex),
// and the arrow keys move the choice and the focus together, round from the last to the first.
function chooseDifficulty(name) {
  difficulty = name;
  keepChoice("difficulty", name);
  for (const button of document.querySelectorAll("[data-difficulty]")) {
    const chosen = button.dataset.difficulty === name;
    button.setAttribute("aria-checked", chosen ? "true" : "false");
    button.tabIndex = chosen ? 0 : -1;
  }
}

document.querySelector("[role=radiogroup]").addEventListener("keydown", (event) => {
  const next = roved([...document.querySelectorAll("[data-difficulty]")], event);
  if (!next) return;
  chooseDifficulty(next.dataset.difficulty);
  next.focus();
});

// The item an arrow key moves to in a group of one tab stop (the radio group, the tray's Left and Right), round
// the ends; null for any other key.
function roved(items, event) {
  const step = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}[event.key];
  if (!step) return null;
  event.preventDefault();
  return items[(items.indexOf(event.target) + step + items.length) % items.length];
}

async function makePuzzle(size, wanted) {
  const progress = $("progress"), text = $("progress-text");
  progress.hidden = false;
  text.textContent = `Making a ${size}-domino puzzle…`;
  try {
    const {job} = await api("/api/generate", {dominoes: size, difficulty: wanted || null});
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const status = await api("/api/jobs/" + job);
      text.textContent = `Making a ${size}-domino puzzle… ${status.seconds.toFixed(1)} s` +
        " (proving it has one solution)";
      progress.querySelector(".bar div").style.width = Math.min(95, 100 * status.seconds / 20) + "%";
      if (status.status === "done") { start(status.puzzle); break; }
      if (status.status === "failed") throw new Error(status.error);
    }
  } finally {
    progress.hidden = true;
  }
}

// ---- events ----

function cellAt(x, y) {
  const found = document.elementsFromPoint(x, y).find((e) => e.dataset && e.dataset.cell);
  return found ? found.dataset.cell.split(",").map(Number) : null;
}

let drag = null;   // {tile, x, y, moved, floating, fromPlaced}

function cellSize() {
  return $("board").querySelector("rect.cell").getBoundingClientRect().width + 3;
}

// A dragged domino hangs by its centre, as the NYT's does: it goes where its left (top) half lies, half a cell
// left of (above) the pointer.
function cellUnderLeftHalf(event) {
  const half = cellSize() / 2, upright = hand.turn % 2 === 1;
  return cellAt(event.clientX - (upright ? 0 : half), event.clientY - (upright ? half : 0));
}

function beginDrag(event, tile, fromPlaced) {
  drag = {tile, x: event.clientX, y: event.clientY, moved: false, floating: null, fromPlaced};
}

document.addEventListener("pointermove", (event) => {
  if (drag && !drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 6) {
    drag.moved = true;
    if (drag.fromPlaced !== null) takeBack(drag.fromPlaced, true);
    else if (!hand || hand.tile !== drag.tile) hand = {tile: drag.tile, turn: 0};
    drag.floating = element("div", {class: "floating"});
    document.body.append(drag.floating);
    draw();
  }
  if (drag && drag.moved) {
    const upright = hand.turn % 2 === 1;
    const picture = svg("svg", {viewBox: upright ? `0 0 ${CELL} ${2 * CELL}` : `0 0 ${2 * CELL} ${CELL}`});
    const domino = game.dominoes[hand.tile];
    const cells = [[0, 0], [TURNS[hand.turn][1] * CELL, TURNS[hand.turn][0] * CELL]];
    const shift = [Math.min(0, cells[1][0]), Math.min(0, cells[1][1])];
    drawDomino(picture, domino, cells.map(([x, y]) => [x - shift[0], y - shift[1]]), "in-tray");
    drag.floating.replaceChildren(picture);
    const size = cellSize();
    drag.floating.style.width = (upright ? size : 2 * size) + "px";
    drag.floating.style.left = event.clientX - (upright ? size : 2 * size) / 2 + "px";
    drag.floating.style.top = event.clientY - (upright ? 2 * size : size) / 2 + "px";
    const cell = cellUnderLeftHalf(event);
    if (cell && (!cursor || key(cell) !== key(cursor))) { cursor = cell; drawBoard(); }
  } else if (hand !== null && event.target.closest && event.target.closest("#board")) {
    const cell = cellAt(event.clientX, event.clientY);
    if (cell && (!cursor || key(cell) !== key(cursor))) { cursor = cell; drawBoard(); }
  }
});

document.addEventListener("pointerup", (event) => {
  if (!drag) return;
  const finished = drag;
  drag = null;
  if (finished.floating) finished.floating.remove();
  if (!finished.moved) {
    // A domino newly in hand is drawn on the board where the pointer goes next, not on the cell of the last tap: a
    // touch screen has no hover, and it lay there (in red over the domino just placed, as if tried there).
    if (!hand || hand.tile !== finished.tile) cursor = null;
    if (finished.fromPlaced !== null) takeBack(finished.fromPlaced, true);
    else take(finished.tile);
    return;
  }
  const cell = cellUnderLeftHalf(event);
  // A domino dragged off the board and let go there goes back to the tray: it stayed in hand, drawn in red on the
  // cell where the pointer had left the board, and seemed still there. (One from the tray stays in hand, as a tap
  // takes it: a finger's tap on a phone moves a little; drawn on no cell, as after a tap that did not.)
  if (cell) place(cell);
  else if (finished.fromPlaced !== null) putBack();
  else {
    cursor = null;
    draw();
  }
});

$("tray").addEventListener("pointerdown", (event) => {
  const button = event.target.closest(".tray-domino");
  if (!button || button.disabled) return;
  event.preventDefault();
  beginDrag(event, Number(button.dataset.tile), null);
});

// The tray is a listbox: one tab stop (`trayStop`); Left and Right go from domino to domino, Up and Down to
// the row above or below as the tray is laid out (they went to the next domino, across a row of two).
$("tray").addEventListener("keydown", (event) => {
  const button = event.target.closest(".tray-domino");
  if (!button) return;
  const free = [...$("tray").querySelectorAll(".tray-domino:not(.used)")];
  const rowStep = {ArrowUp: -1, ArrowDown: 1}[event.key];
  if (rowStep) event.preventDefault();  // (no scroll, at the first or last row too)
  const next = rowStep ? inNextRow(free, button, rowStep) : roved(free, event);
  if (next) {
    button.tabIndex = -1;
    next.tabIndex = 0;
    trayStop = Number(next.dataset.tile);
    next.focus();
  }
  if (event.key !== "Enter" && event.key !== " ") return;
  event.preventDefault();
  take(Number(button.dataset.tile));
  cursor = cursor || firstCell();
  $("board").focus();
});

$("board").addEventListener("pointerdown", (event) => {
  // (with a domino in hand, a press on a placed one puts it there too, in that one's place: `place`)
  const group = hand === null && event.target.closest("[data-placed]");
  if (group) {
    event.preventDefault();
    beginDrag(event, placed[Number(group.dataset.placed)].tile, Number(group.dataset.placed));
    return;
  }
  const cell = cellAt(event.clientX, event.clientY);
  if (cell && hand !== null) {
    event.preventDefault();
    // A tap on the domino in hand where it is drawn (tried there, and turned: a touch screen has no hover) puts it
    // there, whichever half is tapped: its second half was taken for the first, and the domino went a cell on.
    const shown = cursor && spotFor(hand, cursor);
    if (!shown || !shown.fits || !shown.cells.some((c) => key(c) === key(cell))) cursor = cell;
    place(cursor);
  } else if (cell && !$("message").childNodes.length) {
    // (a new player's first tap is often on the board, and nothing happened; what is said already is kept)
    say("First take a domino from the tray, then tap the cell for its left (top) half.", "warning");
    bringIntoView($("message"), ".mark");
  }
});

$("board").addEventListener("focus", () => {
  cursor = cursor || firstCell();
  $("cursor-said").textContent = "";  // (said again, the same cell too)
  drawBoard();
});
$("board").addEventListener("blur", () => drawBoard());

$("board").addEventListener("keydown", (event) => {
  if (!game) return;
  cursor = cursor || firstCell();  // (none since a tap took a domino, the board in focus)
  const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  if (moves[event.key]) {
    event.preventDefault();
    const [dr, dc] = moves[event.key];
    // Jump over gaps to the next cell of the board in that direction.
    for (let step = 1; step < 40; step++) {
      const next = [cursor[0] + dr * step, cursor[1] + dc * step];
      if (onBoard(next)) { cursor = next; break; }
    }
    drawBoard();
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    if (hand !== null) {
      if (place(cursor) && placed.length < game.dominoes.length) focusTray();
    } else {
      const index = placed.findIndex((p) => p.cells.some((c) => key(c) === key(cursor)));
      // (on an empty cell, with nothing to place, the domino is picked up from the tray: Enter did nothing, where
      // the board's first Tab stop, before the tray's, put a new player)
      if (index >= 0) takeBack(index, true);
      else focusTray();
    }
  } else if (event.key === "Delete" || event.key === "Backspace") {
    const index = placed.findIndex((p) => p.cells.some((c) => key(c) === key(cursor)));
    if (index >= 0) takeBack(index, false);
  }
});

// The domino nearest across to `from` in the row above (`step` -1) or below (1) as the tray is shown: two
// columns beside a laptop's board, as many as fit under a phone's; none past the first or the last row.
function inNextRow(items, from, step) {
  const here = from.getBoundingClientRect();
  const middle = (box) => box.left + box.width / 2;
  let nearest = null, best = null;
  for (const item of items) {
    const box = item.getBoundingClientRect();
    const rows = Math.round((box.top - here.top) * step), across = Math.abs(middle(box) - middle(here));
    if (rows > 0 && (!best || rows < best[0] || (rows === best[0] && across < best[1]))) {
      nearest = item;
      best = [rows, across];
    }
  }
  return nearest;
}

function focusTray() {
  const stop = $("tray").querySelector(".tray-domino[tabindex='0']");
  if (stop) stop.focus();
}

document.addEventListener("keydown", (event) => {
  if (!game || event.target.matches("input, select, textarea")) return;
  // (the solved screen is modal: the board's keys do nothing behind it, only Escape closes it)
  if (!$("solved").hidden && event.key !== "Escape") return;
  const command = event.ctrlKey || event.metaKey;
  if (command && event.key.toLowerCase() === "z") { event.preventDefault(); event.shiftKey ? redo() : undo(); }
  else if (command && event.key.toLowerCase() === "y") { event.preventDefault(); redo(); }
  else if (!command && (event.key === "r" || event.key === "R")) turnHand();
  else if (!command && (event.key === "h" || event.key === "H")) $("hint").click();
  else if (event.key === "Escape") {  // wherever the focus is: after a click it is not on the board
    if (!$("solved").hidden) closeSolved();
    if ($("message").classList.contains("asking")) unask();
    putBack();
  }
});

// Back to the board, the keyboard's focus too: it was left on the hidden dialog's button, and the next Tab
// started again from the top of the page.
function closeSolved() {
  $("solved").hidden = true;
  solvedClosed = true;
  save();
  $("board").focus();
}

$("chooser-toggle").addEventListener("click", () => showChooser($("chooser").classList.contains("folded")));
// (the board takes the focus without the link's #board in the address, which a reload would scroll to)
$("skip").addEventListener("click", (event) => {
  event.preventDefault();
  $("board").focus();
});
$("solved-close").addEventListener("click", closeSolved);
$("solved-next").addEventListener("click", playNext);
// The solved screen is a modal dialog: Tab goes round its buttons (it went on to the page behind, where Escape,
// pressed in the day's input, no longer closed it).
$("solved").addEventListener("keydown", (event) => {
  if (event.key !== "Tab") return;
  event.preventDefault();
  const buttons = [...$("solved").querySelectorAll("button:not([hidden])")];
  const step = event.shiftKey ? -1 : 1;
  buttons[(buttons.indexOf(document.activeElement) + step + buttons.length) % buttons.length].focus();
});
$("turn").addEventListener("click", turnHand);
$("put-back").addEventListener("click", putBack);
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("clear").addEventListener("click", () => {
  remember();
  placed = [];
  hand = null;
  changed();
});
$("hint").addEventListener("click", (event) => busy(event.currentTarget, async () => {
  const answer = await question("/api/hint");
  showStep(answer.step);
}));
$("check").addEventListener("click", (event) => busy(event.currentTarget, checkPosition));
$("reveal-one").addEventListener("click", (event) => busy(event.currentTarget, () => reveal(false)));
$("reveal-all").addEventListener("click", (event) => {
  if (placed.length < game.dominoes.length) askRevealAll();
  else busy(event.currentTarget, () => reveal(true));  // (nothing to lose: the server says what it sees)
});

for (const button of document.querySelectorAll("[data-difficulty]")) {
  button.addEventListener("click", () => chooseDifficulty(button.dataset.difficulty));
}
$("pick-day").addEventListener("submit", (event) => {
  event.preventDefault();
  busy($("play-day"), async () => {
    start(await api(`/api/day/${$("day").value}/${difficulty}`));
    loadDays();  // (a day fetched now is in the cache: the solved screen's way on counts it)
  });
});
$("file").addEventListener("change", () => {
  const file = $("file").files[0];
  if (!file) return;
  busy($("play-day"), async () => {
    // the difficulty chosen here picks among a day file's puzzles; a file of one opens that one
    start(await api("/api/open", {name: file.name, text: await file.text(), prefer: difficulty}));
    $("file").value = "";
  });
});
for (const id of MAKE_MENUS) $(id).addEventListener("change", () => keepChoice(id, $(id).value));
// How to play is open for a new player; once folded (closed, or a domino placed) it stays so, on a reload too.
$("how-to-play").addEventListener("toggle", () => keepChoice("how-to-play", $("how-to-play").open ? "open" : "closed"));
$("make").addEventListener("submit", (event) => {
  event.preventDefault();
  busy($("make-button"), () => makePuzzle(Number($("make-size").value), $("make-difficulty").value));
});

// ---- on load: this tab's puzzle, else the command line's, else the last one played, else the newest day in
// the cache (easy) ----

async function openNewest() {
  const {days} = await api("/api/days");
  if (!days.length) {
    $("title").textContent = "No puzzle yet";
    say("Pick a day to fetch, open a puzzle file, or make a new puzzle.");
    return;
  }
  chooseDifficulty("easy");
  start(await api(`/api/day/${days[days.length - 1]}/easy`));
}

function stored(storage, name) {
  try {
    const view = JSON.parse(storage.getItem(name) || "null");
    if (view && view.puzzle && view.regions) return view;
  } catch (error) { /* a damaged entry is none */ }
  return null;
}

(async function open() {
  loadDays();
  const chosen = chosenBefore("difficulty", difficulties());
  if (chosen) chooseDifficulty(chosen);
  for (const id of MAKE_MENUS) {
    const value = chosenBefore(id, [...$(id).options].map((option) => option.value));
    if (value !== null) $(id).value = value;
  }
  if (chosenBefore("how-to-play", ["closed"])) $("how-to-play").open = false;
  setInterval(tick, 1000);
  window.addEventListener("pagehide", save);
  const given = () => api("/api/first").then((answer) => answer.game, () => null);
  const view = stored(sessionStorage, "pipscover:view") || await given() || stored(localStorage, "pipscover:last");
  if (view) start(view);
  else openNewest().catch((error) => say(error.message, "bad"));
})();
