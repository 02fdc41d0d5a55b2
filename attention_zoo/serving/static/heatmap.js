// The explorer's heat map: a table whose row labels are the output tokens
// and whose column labels are the source tokens, so that a label shares its
// cells' row or column by the table's own layout (no pixel arithmetic to
// drift out of line), a colour scale with its range, and hover (or focus)
// linking both ways: a token lights up its row or column, a cell its two
// tokens.
"use strict";

// ColorBrewer's sequential "Blues": light for little weight, dark for much.
const SCALE = [[247, 251, 255], [107, 174, 214], [8, 48, 107]];

function scaleColour(t) {
  const x = Math.min(1, Math.max(0, t)) * (SCALE.length - 1);
  const i = Math.min(SCALE.length - 2, Math.floor(x));
  const f = x - i;
  const rgb = SCALE[i].map((v, k) => Math.round(v + f * (SCALE[i + 1][k] - v)));
  return `rgb(${rgb.join(", ")})`;
}

// A space or an empty token would be an invisible label.
function shownToken(token) {
  if (token === " ") return "␣";
  return token === "" ? "∅" : token;
}

function labelCell(tag, className, token, data) {
  const cell = document.createElement(tag);
  cell.className = className;
  cell.tabIndex = 0;
  Object.assign(cell.dataset, data);
  const label = document.createElement("span");
  label.className = "label";
  label.textContent = shownToken(token);
  cell.appendChild(label);
  return cell;
}

// The legend's bar is drawn from SCALE, so that it cannot disagree with the cells.
function drawLegend(top) {
  const stops = SCALE.map((_, i) => scaleColour(i / (SCALE.length - 1)));
  document.getElementById("legend-bar").style.background =
    `linear-gradient(to right, ${stops.join(", ")})`;
  document.getElementById("legend-max").textContent = `${top.toFixed(3)} (the largest weight)`;
}

// Shade `labels` by `weights` on the legend's scale; the weight is kept in
// `data-weight` for the reader (and the tests).
function shade(labels, weights, top) {
  labels.forEach((label, i) => {
    if (weights === null) {
      label.style.background = "";
      label.style.color = "";
      delete label.dataset.weight;
      return;
    }
    const w = weights[i] || 0;
    label.style.background = scaleColour(w / top);
    label.style.color = w / top > 0.55 ? "white" : "";
    label.dataset.weight = w.toFixed(4);
  });
}

// Draw `attention` (`weights` rows over `source_tokens` columns, one row per
// `output_tokens`) into `table`; `onRow(row)` is called whenever a row
// becomes the active one (the explorer draws the image overlay from it).
function drawHeatmap(table, attention, onRow) {
  const rows = attention.weights;
  const outputs = attention.output_tokens;
  const sources = attention.source_tokens;
  const top = Math.max(1e-9, ...rows.flat());
  table.innerHTML = "";
  // Word tokens stand upright so that a column stays as narrow as a cell.
  table.classList.toggle("vertical", sources.some((t) => t.length > 2));
  const head = table.createTHead().insertRow();
  const corner = document.createElement("th");
  corner.className = "corner";
  corner.innerHTML = "output ↓<br>source →";
  head.appendChild(corner);
  const colLabels = sources.map((token, c) => {
    const th = labelCell("th", "token source", token, { col: c });
    th.scope = "col";
    head.appendChild(th);
    return th;
  });
  const body = table.createTBody();
  const rowLabels = [];
  const cells = outputs.map((token, r) => {
    const tr = body.insertRow();
    const th = labelCell("th", "token output", token, { row: r });
    th.scope = "row";
    tr.appendChild(th);
    rowLabels.push(th);
    return sources.map((source, c) => {
      const td = tr.insertCell();
      const w = (rows[r] || [])[c] || 0;
      td.className = "cell";
      td.dataset.row = r;
      td.dataset.col = c;
      td.style.background = scaleColour(w / top);
      td.title = `${shownToken(token)} ← ${shownToken(source)}: ${w.toFixed(3)}`;
      return td;
    });
  });
  drawLegend(top);

  const readout = document.getElementById("readout");
  const column = (c) => rows.map((weights) => weights[c] || 0);
  const strongest = (weights) => weights.indexOf(Math.max(...weights));

  function light(r, c) {
    table.querySelectorAll(".row-on, .col-on, .linked").forEach((x) =>
      x.classList.remove("row-on", "col-on", "linked"));
    if (r !== null) {
      rowLabels[r].classList.add("linked");
      cells[r].forEach((td) => td.classList.add("row-on"));
      shade(colLabels, rows[r] || [], top);
      onRow(r);
    }
    if (c !== null) {
      colLabels[c].classList.add("linked");
      cells.forEach((row) => row[c].classList.add("col-on"));
    }
    shade(rowLabels, r === null && c !== null ? column(c) : null, top);
    if (r === null) shade(colLabels, null, top);
  }

  function describe(r, c) {
    const out = (i) => `“${shownToken(outputs[i])}”`;
    const src = (j) => `“${shownToken(sources[j])}”`;
    if (r !== null && c !== null) {
      return `${out(r)} ← ${src(c)}: weight ${(rows[r][c] || 0).toFixed(3)}`;
    }
    if (r !== null) {
      const j = strongest(rows[r]);
      return `output ${out(r)} looked most at ${src(j)} (${(rows[r][j] || 0).toFixed(3)})`;
    }
    const weights = column(c);
    const i = strongest(weights);
    return `source ${src(c)} weighed most in ${out(i)} (${weights[i].toFixed(3)})`;
  }

  function activate(event) {
    const target = event.target.closest("[data-row], [data-col]");
    if (!target || !table.contains(target)) return;
    const r = target.dataset.row === undefined ? null : Number(target.dataset.row);
    const c = target.dataset.col === undefined ? null : Number(target.dataset.col);
    light(r, c);
    readout.textContent = describe(r, c);
  }

  // One pair of listeners a table (no `onfocusin` property in Chromium),
  // reading the map drawn last.
  if (!table.activate) {
    table.addEventListener("mouseover", (event) => table.activate(event));
    table.addEventListener("focusin", (event) => table.activate(event));
  }
  table.activate = activate;
  if (rowLabels.length) {
    light(0, null);
    readout.textContent = describe(0, null);
  }
}
