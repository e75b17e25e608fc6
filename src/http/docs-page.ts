/**
 * The /docs page: one self-contained HTML file (no CDN, no network beyond this service) that fetches
 * the three OpenAPI documents and renders their operations, parameters, bodies, responses and
 * schemas. The script avoids template literals so it can live inside this TypeScript string.
 */
import type { Surface } from "./route.js";

export function docsPageHtml(documentUrls: Record<Surface, string>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API documentation</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d232b; background: #f6f7f9; }
  header { background: #1d2b3a; color: #fff; padding: 12px 24px; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 18px; margin: 0 16px 0 0; }
  header button { background: transparent; color: #cfe0f3; border: 1px solid #4b6582; border-radius: 4px; padding: 4px 12px; cursor: pointer; }
  header button[aria-pressed="true"] { background: #cfe0f3; color: #1d2b3a; }
  header input { margin-left: auto; padding: 4px 8px; border-radius: 4px; border: 0; min-width: 220px; }
  main { max-width: 1100px; margin: 0 auto; padding: 16px 24px 64px; }
  h2 { margin-top: 28px; border-bottom: 1px solid #d5dae0; padding-bottom: 4px; }
  details.op { background: #fff; border: 1px solid #d5dae0; border-radius: 6px; margin: 6px 0; }
  details.op > summary { cursor: pointer; padding: 8px 12px; display: flex; gap: 10px; align-items: baseline; }
  details.op[open] > summary { border-bottom: 1px solid #e3e6ea; }
  .body { padding: 8px 16px 12px; }
  .method { font: bold 12px monospace; padding: 2px 6px; border-radius: 3px; color: #fff; min-width: 52px; text-align: center; }
  .GET { background: #2f7d4f; } .POST { background: #2d5fa8; } .PUT { background: #8a5a14; } .PATCH { background: #7a4aa0; } .DELETE { background: #a83232; }
  .path { font-family: monospace; font-weight: 600; }
  .deprecated .path { text-decoration: line-through; }
  .muted { color: #5f6b78; }
  table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
  th, td { text-align: left; border-bottom: 1px solid #e3e6ea; padding: 4px 8px; vertical-align: top; }
  code, .schema { font-family: monospace; font-size: 13px; }
  .schema ul { list-style: none; padding-left: 18px; margin: 2px 0; border-left: 1px dotted #c3cad2; }
  .req { color: #a83232; }
  .error { color: #a83232; }
</style>
</head>
<body>
<header>
  <h1>API documentation</h1>
  <nav id="surfaces"></nav>
  <input id="filter" type="search" placeholder="Filter operations" aria-label="Filter operations">
</header>
<main id="content"><p class="muted">Loading…</p></main>
<script>
"use strict";
var DOCUMENTS = ${JSON.stringify(documentUrls).replace(/</g, "\\u003c")};
var loaded = {};
var current = null;

function esc(value) {
  return String(value).replace(/[&<>"']/g, function (c) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
  });
}

function resolve(doc, schema) {
  var seen = 0;
  while (schema && schema.$ref && seen++ < 20) {
    var parts = schema.$ref.replace(/^#\\//, "").split("/");
    var target = doc;
    for (var i = 0; i < parts.length; i++) target = target && target[parts[i]];
    schema = target;
  }
  return schema || {};
}

function typeLabel(schema) {
  var parts = [];
  if (schema.type) parts.push(Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type);
  if (schema.format) parts.push("(" + schema.format + ")");
  if (schema.enum) parts.push("one of " + schema.enum.map(function (v) { return JSON.stringify(v); }).join(", "));
  if (schema.const !== undefined) parts.push("= " + JSON.stringify(schema.const));
  if (schema.pattern) parts.push("pattern " + schema.pattern);
  if (schema.minimum !== undefined) parts.push("≥ " + schema.minimum);
  if (schema.maximum !== undefined) parts.push("≤ " + schema.maximum);
  if (schema.minLength !== undefined) parts.push("length ≥ " + schema.minLength);
  if (schema.maxLength !== undefined) parts.push("length ≤ " + schema.maxLength);
  if (schema.default !== undefined) parts.push("default " + JSON.stringify(schema.default));
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false) parts.push("no other fields");
  return parts.join(" ");
}

function schemaHtml(doc, schema, depth) {
  var ref = schema && schema.$ref ? schema.$ref.split("/").pop() : null;
  schema = resolve(doc, schema);
  if (depth > 8) return "<span class='muted'>…</span>";
  var html = (ref ? "<b>" + esc(ref) + "</b> " : "") + esc(typeLabel(schema));
  if (schema.description) html += " <span class='muted'>— " + esc(schema.description) + "</span>";
  var items = [];
  var required = schema.required || [];
  Object.keys(schema.properties || {}).forEach(function (name) {
    items.push("<li>" + esc(name) + (required.indexOf(name) >= 0 ? "<span class='req'>*</span>" : "") + ": " +
      schemaHtml(doc, schema.properties[name], depth + 1) + "</li>");
  });
  if (schema.items) items.push("<li>items: " + schemaHtml(doc, schema.items, depth + 1) + "</li>");
  ["allOf", "anyOf", "oneOf"].forEach(function (key) {
    (schema[key] || []).forEach(function (branch, i) {
      items.push("<li>" + key + " #" + (i + 1) + ": " + schemaHtml(doc, branch, depth + 1) + "</li>");
    });
  });
  return html + (items.length ? "<ul>" + items.join("") + "</ul>" : "");
}

function operationHtml(doc, path, method, op) {
  var body = "";
  if (op.description) body += "<p>" + esc(op.description).replace(/\\n\\n/g, "</p><p>") + "</p>";
  var params = (op.parameters || []).map(function (p) { return resolve(doc, p); });
  if (params.length) {
    body += "<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Schema</th></tr>" + params.map(function (p) {
      return "<tr><td><code>" + esc(p.name) + "</code>" + (p.required ? "<span class='req'>*</span>" : "") +
        "</td><td>" + esc(p.in) + "</td><td class='schema'>" + schemaHtml(doc, p.schema || {}, 0) +
        (p.description ? "<div class='muted'>" + esc(p.description) + "</div>" : "") + "</td></tr>";
    }).join("") + "</table>";
  }
  if (op.requestBody) {
    var content = op.requestBody.content || {};
    body += "<h4>Request body" + (op.requestBody.required ? " <span class='req'>(required)</span>" : "") + "</h4>";
    Object.keys(content).forEach(function (type) {
      body += "<div class='muted'>" + esc(type) + "</div><div class='schema'>" + schemaHtml(doc, content[type].schema || {}, 0) + "</div>";
    });
  }
  body += "<h4>Responses</h4><table><tr><th>Status</th><th>Description</th></tr>";
  Object.keys(op.responses || {}).forEach(function (status) {
    var response = resolve(doc, op.responses[status]);
    var content = response.content || {};
    var detail = Object.keys(content).map(function (type) {
      return "<div class='muted'>" + esc(type) + "</div><div class='schema'>" + schemaHtml(doc, content[type].schema || {}, 0) + "</div>";
    }).join("");
    body += "<tr><td><code>" + esc(status) + "</code></td><td>" + esc(response.description || "") + detail + "</td></tr>";
  });
  body += "</table>";
  var security = (op.security || []).map(function (s) {
    return Object.keys(s).map(function (k) { return k + (s[k].length ? " [" + s[k].join(", ") + "]" : ""); }).join(" + ");
  }).join(" or ");
  body += "<p class='muted'>Security: " + esc(security || "none") + " · operationId <code>" + esc(op.operationId) + "</code></p>";
  return "<details class='op" + (op.deprecated ? " deprecated" : "") + "' data-search='" +
    esc((method + " " + path + " " + (op.summary || "") + " " + (op.tags || []).join(" ")).toLowerCase()) + "'>" +
    "<summary><span class='method " + esc(method.toUpperCase()) + "'>" + esc(method.toUpperCase()) + "</span>" +
    "<span class='path'>" + esc(path) + "</span><span class='muted'>" + esc(op.summary || "") + "</span></summary>" +
    "<div class='body'>" + body + "</div></details>";
}

function documentHtml(doc) {
  var html = "<h1>" + esc(doc.info.title) + " <span class='muted'>" + esc(doc.info.version) + "</span></h1>";
  if (doc.info.description) html += "<p>" + esc(doc.info.description) + "</p>";
  html += "<p class='muted'>Server: " + (doc.servers || []).map(function (s) { return "<code>" + esc(s.url) + "</code>"; }).join(", ") + "</p>";
  var byTag = {};
  Object.keys(doc.paths || {}).forEach(function (path) {
    Object.keys(doc.paths[path]).forEach(function (method) {
      var op = doc.paths[path][method];
      var tag = (op.tags && op.tags[0]) || "Other";
      (byTag[tag] = byTag[tag] || []).push(operationHtml(doc, path, method, op));
    });
  });
  Object.keys(byTag).sort().forEach(function (tag) {
    html += "<h2>" + esc(tag) + "</h2>" + byTag[tag].join("");
  });
  var schemas = (doc.components && doc.components.schemas) || {};
  html += "<h2>Schemas</h2>";
  Object.keys(schemas).forEach(function (name) {
    html += "<details class='op'><summary><b>" + esc(name) + "</b></summary><div class='body schema'>" +
      schemaHtml(doc, schemas[name], 0) + "</div></details>";
  });
  return html;
}

function applyFilter() {
  var term = document.getElementById("filter").value.toLowerCase();
  document.querySelectorAll("details.op[data-search]").forEach(function (el) {
    el.style.display = el.getAttribute("data-search").indexOf(term) >= 0 ? "" : "none";
  });
}

function show(surface) {
  current = surface;
  document.querySelectorAll("#surfaces button").forEach(function (b) {
    b.setAttribute("aria-pressed", String(b.getAttribute("data-surface") === surface));
  });
  var main = document.getElementById("content");
  var entry = loaded[surface];
  if (!entry) { main.innerHTML = "<p class='muted'>Loading…</p>"; return; }
  main.innerHTML = entry.error ? "<p class='error'>Could not load " + esc(DOCUMENTS[surface]) + ": " + esc(entry.error) + "</p>" : documentHtml(entry.doc);
  applyFilter();
}

Object.keys(DOCUMENTS).forEach(function (surface, index) {
  var button = document.createElement("button");
  button.textContent = surface;
  button.setAttribute("data-surface", surface);
  button.addEventListener("click", function () { show(surface); });
  document.getElementById("surfaces").appendChild(button);
  fetch(DOCUMENTS[surface], { headers: { accept: "application/json" } })
    .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
    .then(function (doc) { loaded[surface] = { doc: doc }; }, function (e) { loaded[surface] = { error: e.message }; })
    .then(function () { if (current === surface) show(surface); });
  if (index === 0) show(surface);
});
document.getElementById("filter").addEventListener("input", applyFilter);
</script>
</body>
</html>
`;
}
