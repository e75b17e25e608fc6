/**
 * The /docs page: Swagger UI (from the swagger-ui-dist package, served by this service: no CDN)
 * over the three OpenAPI documents, one selectable at a time, with "try it out" against this host.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Surface } from "./route.js";

export const DOCS_ASSETS_PATH = "/docs/assets";

/** The files of swagger-ui-dist the page loads, with their media types. */
export const DOCS_ASSET_TYPES = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
} as const;

export type DocsAsset = keyof typeof DOCS_ASSET_TYPES | "docs.js";

const swaggerUiFolder = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const loadedAssets = new Map<keyof typeof DOCS_ASSET_TYPES, string>();

/** A file of swagger-ui-dist, read once. */
export function swaggerUiAsset(name: keyof typeof DOCS_ASSET_TYPES): string {
  let content = loadedAssets.get(name);
  if (!content) {
    content = readFileSync(join(swaggerUiFolder, name), "utf8");
    loadedAssets.set(name, content);
  }
  return content;
}

export function docsPageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API documentation</title>
<link rel="stylesheet" href="${DOCS_ASSETS_PATH}/swagger-ui.css">
</head>
<body>
<main id="swagger-ui"></main>
<script src="${DOCS_ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSETS_PATH}/swagger-ui-standalone-preset.js"></script>
<script src="${DOCS_ASSETS_PATH}/docs.js"></script>
</body>
</html>
`;
}

/**
 * The page's script, a file of its own so the page needs no inline script. The validator badge
 * is off: it would send the documents to a public validator.
 */
export function docsScript(documentUrls: Record<Surface, string>): string {
  const urls = Object.entries(documentUrls).map(([surface, url]) => ({ name: `${surface} API`, url }));
  return `"use strict";
window.ui = SwaggerUIBundle({
  urls: ${JSON.stringify(urls)},
  "urls.primaryName": ${JSON.stringify(urls[0]?.name ?? "")},
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: "StandaloneLayout",
});
`;
}
