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
  // Only for a model that takes a reference (`/v1/models` says so); the
  // request leaves the fields out for any other, whatever they hold.
  $("reference-input").hidden = !model.reference;
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
  if (model.reference) {
    // Empty is now: the server's default, so nothing is sent. What the user
    // typed goes as typed (ends trimmed): the server reads it and names
    // a value it cannot read, which the status line shows.
    const reference = $("reference").value.trim();
    if (reference) request.reference = reference;
    if ($("prefer").value) request.prefer = $("prefer").value;
  }
  $("status").textContent = "Running…";
  const response = await fetch(`/v1/${app}/predict`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  const body = await response.json();
  if (!response.ok) {
    $("status").textContent = `Error ${response.status}: ${body.error}`;
    // The last answer goes: shown under the error, it would seem to answer
    // the request refused (resolved against another reference, say).
    $("result").hidden = true;
    return;
  }
  $("status").textContent = "";
  show(body.answers[0], images, model);
}

function show(answer, images, model) {
  $("result").hidden = false;
  $("output").textContent = answer.output || "(no output)";
  $("output").className = answer.valid ? "" : "invalid";
  const score = answer.score === null ? "none" : answer.score.toFixed(3);
  $("meta").textContent = `score ${score} · ${answer.valid ? "valid" : "not valid: " + answer.reason}`;
  showReference(answer, model);
  showNBest(answer.n_best || []);
  const attention = answer.attention;
  $("overlay-box").hidden = !images;
  const onRow = images ? (row) => drawOverlay(attention.weights[row] || [], attention.grid_shape) : () => {};
  drawHeatmap($("heatmap"), attention, onRow);
}

// The reference the server resolved the text against, as its answer says
// (now, read by the server, where the request gave none), so that a user
// sees which day "yesterday" was read from. A model of absolute dates
// takes the fields but its answers depend on no reference and carry none.
function showReference(answer, model) {
  const line = $("reference-used");
  line.hidden = !model.reference;
  if (!model.reference) return;
  line.textContent = answer.reference
    ? `resolved against ${answer.reference} · open texts: ${answer.prefer}`
    : "no reference used: this model's answers do not depend on one";
}

const fixed = (value) => (value === null || value === undefined ? "none" : value.toFixed(3));

// The search orders its hypotheses by its ranking score (the sum of the
// log-probabilities over the GNMT length penalty, where the model has one);
// the log-probability per token, the answer's `score`, need not follow
// that order, so both are shown, each named.
function showNBest(hypotheses) {
  const list = $("n-best");
  list.innerHTML = "";
  $("n-best-box").hidden = hypotheses.length < 2;
  const ranked = hypotheses.some((h) => h.ranking_score !== undefined);
  $("n-best-key").textContent = ranked
    ? "Ordered by ranking: the log-probability over the length penalty ((5 + length) / 6)^α, " +
      "the search's own score; per token: the log-probability over the tokens (<end> " +
      "included), the answer's score, which need not follow that order."
    : "Per token: the log-probability over the tokens (<end> included), the answer's " +
      "score; the list keeps the search's order.";
  for (const hypothesis of hypotheses) {
    const item = document.createElement("li");
    const text = document.createElement("span");
    text.className = "hypothesis";
    text.textContent = hypothesis.text;
    const scores = document.createElement("span");
    scores.className = "scores";
    const parts = [`per token ${fixed(hypothesis.score)}`];
    if (ranked) parts.unshift(`ranking ${fixed(hypothesis.ranking_score)}`);
    scores.textContent = ` (${parts.join(" · ")})`;
    item.append(text, scores);
    if (hypothesis.ranking_score !== undefined) item.dataset.ranking = hypothesis.ranking_score;
    list.appendChild(item);
  }
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
