// The attention explorer: no build step, no dependency; it talks to the
// server's JSON API (/v1/models, /v1/{app}/predict).
"use strict";

const $ = (id) => document.getElementById(id);
let models = {};
let imageBase64 = null;

async function loadModels() {
  const response = await fetch("/v1/models");
  const body = await response.json();
  const select = $("model");
  select.innerHTML = "";
  for (const model of body.models) {
    models[model.app] = model;
    const option = document.createElement("option");
    option.value = model.app;
    option.textContent = `${model.title} (${model.source})`;
    select.appendChild(option);
  }
  if (!body.ready) {
    $("status").textContent = "The models are loading…";
    setTimeout(loadModels, 1000);
  } else {
    $("status").textContent = "";
  }
  showInputs();
}

function showInputs() {
  const model = models[$("model").value];
  if (!model) return;
  const images = model.input.startsWith("image");
  $("text-input").hidden = images;
  $("image-input").hidden = !images;
  $("beam-label").hidden = model.beam_width === null;
  $("beam").value = model.beam_width || "";
}

function readImage(file) {
  const reader = new FileReader();
  reader.onload = () => {
    imageBase64 = String(reader.result).split(",")[1];
    $("picture").src = reader.result;
    $("status").textContent = `${file.name} ready`;
  };
  reader.readAsDataURL(file);
}

async function run(event) {
  event.preventDefault();
  const app = $("model").value;
  const model = models[app];
  const images = model.input.startsWith("image");
  const input = images ? imageBase64 : $("text").value;
  if (!input) {
    $("status").textContent = images ? "Choose an image first." : "Type an input first.";
    return;
  }
  const request = { inputs: [input], attention: true };
  if (model.beam_width !== null && $("beam").value) request.beam_width = Number($("beam").value);
  if (model.n_best) request.n_best = true;
  $("status").textContent = "Running…";
  const response = await fetch(`/v1/${app}/predict`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  const body = await response.json();
  if (!response.ok) {
    $("status").textContent = `Error ${response.status}: ${body.error}`;
    return;
  }
  $("status").textContent = "";
  show(body.answers[0], images);
}

function show(answer, images) {
  $("result").hidden = false;
  $("output").textContent = answer.output || "(no output)";
  $("output").className = answer.valid ? "" : "invalid";
  const score = answer.score === null ? "none" : answer.score.toFixed(3);
  $("meta").textContent = `score ${score} · ${answer.valid ? "valid" : "not valid: " + answer.reason}`;
  const list = $("n-best");
  list.innerHTML = "";
  $("n-best-box").hidden = !(answer.n_best && answer.n_best.length > 1);
  for (const hypothesis of answer.n_best || []) {
    const item = document.createElement("li");
    const s = hypothesis.score === null ? "none" : hypothesis.score.toFixed(3);
    item.textContent = `${hypothesis.text} (score ${s})`;
    list.appendChild(item);
  }
  const attention = answer.attention;
  const rows = attention.weights;
  const outputs = $("output-tokens");
  const sources = $("source-tokens");
  outputs.innerHTML = "";
  sources.innerHTML = "";
  $("overlay-box").hidden = !images;
  sources.hidden = images;
  const sourceSpans = attention.source_tokens.map((token) => {
    const span = document.createElement("span");
    span.className = "token source";
    span.textContent = token === " " ? "␣" : token;
    sources.appendChild(span);
    return span;
  });
  attention.output_tokens.forEach((token, row) => {
    const span = document.createElement("span");
    span.className = "token output";
    span.tabIndex = 0;
    span.textContent = token;
    span.dataset.row = row;
    const highlight = () => {
      outputs.querySelectorAll(".active").forEach((x) => x.classList.remove("active"));
      span.classList.add("active");
      const weights = rows[row] || [];
      const top = Math.max(...weights, 1e-9);
      sourceSpans.forEach((s, i) => {
        const w = (weights[i] || 0) / top;
        s.style.background = `rgba(11, 87, 208, ${w.toFixed(3)})`;
        s.style.color = w > 0.5 ? "white" : "";
        s.dataset.weight = (weights[i] || 0).toFixed(4);
      });
      if (images) drawOverlay(weights, attention.grid_shape);
      drawHeatmap(rows, row);
    };
    span.addEventListener("mouseenter", highlight);
    span.addEventListener("focus", highlight);
    outputs.appendChild(span);
  });
  drawHeatmap(rows, -1);
  const first = outputs.querySelector(".output");
  if (first) first.dispatchEvent(new Event("mouseenter"));
}

function drawOverlay(weights, grid) {
  const canvas = $("overlay");
  const [h, w] = grid;
  canvas.width = w;
  canvas.height = h;
  const context = canvas.getContext("2d");
  context.clearRect(0, 0, w, h);
  const top = Math.max(...weights, 1e-9);
  for (let i = 0; i < h * w; i++) {
    context.fillStyle = `rgba(255, 200, 0, ${(0.75 * (weights[i] || 0) / top).toFixed(3)})`;
    context.fillRect(i % w, Math.floor(i / w), 1, 1);
  }
}

function drawHeatmap(rows, active) {
  // One cell per (output token, source position), darker for more weight.
  const canvas = $("heatmap");
  const cell = 12;
  const width = rows.length ? rows[0].length : 0;
  canvas.width = Math.max(1, width * cell);
  canvas.height = Math.max(1, rows.length * cell);
  const context = canvas.getContext("2d");
  rows.forEach((weights, r) => {
    weights.forEach((w, c) => {
      const shade = Math.round(255 * (1 - Math.min(1, w)));
      context.fillStyle = `rgb(${shade}, ${shade}, 255)`;
      context.fillRect(c * cell, r * cell, cell, cell);
    });
    if (r === active) {
      context.strokeStyle = "#d00";
      context.strokeRect(0.5, r * cell + 0.5, width * cell - 1, cell - 1);
    }
  });
}

$("model").addEventListener("change", showInputs);
$("ask").addEventListener("submit", run);
$("image").addEventListener("change", (e) => e.target.files[0] && readImage(e.target.files[0]));
const drop = $("drop");
drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => {
  e.preventDefault();
  drop.classList.remove("over");
  if (e.dataTransfer.files[0]) readImage(e.dataTransfer.files[0]);
});
loadModels();
