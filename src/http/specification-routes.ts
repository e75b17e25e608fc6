/**
 * The routes that publish the API's own description (spec 4.6): one OpenAPI 3.1 document per surface
 * at /openapi/<surface>/v1.json and a browsable page at /docs (Swagger UI). They are declared like every other
 * route, so they document themselves too. {passenger_base_url} is a host of its own, so the passenger
 * document is published there as well, at the same path.
 */
import {
  DOCS_ASSET_TYPES,
  DOCS_ASSETS_PATH,
  type DocsAsset,
  docsPageHtml,
  docsScript,
  swaggerUiAsset,
} from "./docs-page.js";
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiOptions, SURFACES } from "./openapi.js";
import { defineRoute, type Route, type Surface } from "./route.js";

export function openApiDocumentPath(surface: Surface): string {
  return `/openapi/${surface}/v1.json`;
}

/**
 * The three document routes and the docs page for `routes`, listed in the operator document, whose
 * host serves them, and the passenger document's route on the passenger host, listed in the passenger
 * document. Documents are built on first request (after every route is declared) and kept.
 */
export function specificationRoutes(routes: readonly Route[], options: OpenApiOptions): Route[] {
  const documents = new Map<Surface, OpenApiDocument>();
  const documentOf = (surface: Surface): OpenApiDocument => {
    let document = documents.get(surface);
    if (!document) {
      document = buildOpenApiDocument(surface, [...routes, ...published], options);
      documents.set(surface, document);
    }
    return document;
  };
  const documentRoutes = SURFACES.map((surface) =>
    defineRoute({
      method: "GET",
      path: openApiDocumentPath(surface),
      operationId: `getOpenApi${surface[0]!.toUpperCase()}${surface.slice(1)}`,
      summary: `OpenAPI 3.1 document of the ${surface} API`,
      tags: ["Specification"],
      surface: "operator",
      access: { kind: "public" },
      responses: { 200: { description: "The document", schema: { type: "object" } } },
      handler: () => ({ status: 200, body: documentOf(surface) }),
    }),
  );
  const html = docsPageHtml();
  const script = docsScript(
    Object.fromEntries(SURFACES.map((s) => [s, openApiDocumentPath(s)])) as Record<Surface, string>,
  );
  const docsPage = defineRoute({
    method: "GET",
    path: "/docs",
    operationId: "getDocs",
    summary: "Browsable documentation of the three APIs (Swagger UI)",
    tags: ["Specification"],
    surface: "operator",
    access: { kind: "public" },
    responses: { 200: { description: "HTML page", contentType: "text/html", schema: { type: "string" } } },
    handler: () => ({ status: 200, body: html }),
  });
  const assetNames = [...Object.keys(DOCS_ASSET_TYPES), "docs.js"] as DocsAsset[];
  const docsAsset = defineRoute({
    method: "GET",
    path: `${DOCS_ASSETS_PATH}/:file`,
    operationId: "getDocsAsset",
    summary: "A file of the documentation page (Swagger UI's script and style, the page's script)",
    tags: ["Specification"],
    surface: "operator",
    access: { kind: "public" },
    params: {
      type: "object",
      properties: { file: { type: "string", enum: assetNames } },
      required: ["file"],
    },
    responses: {
      200: { description: "The file", contentType: "text/javascript", schema: { type: "string" } },
    },
    handler: ({ params }) => {
      const file = params.file as DocsAsset;
      const [body, type] =
        file === "docs.js"
          ? [script, "text/javascript; charset=utf-8"]
          : [swaggerUiAsset(file), DOCS_ASSET_TYPES[file]];
      return {
        status: 200,
        headers: { "Content-Type": type, "Cache-Control": "public, max-age=3600" },
        body,
      };
    },
  });
  const passengerHostDocument = defineRoute({
    method: "GET",
    path: openApiDocumentPath("passenger"),
    operationId: "getPassengerHostOpenApiPassenger",
    summary: "OpenAPI 3.1 document of the passenger API",
    tags: ["Specification"],
    surface: "passenger",
    access: { kind: "public" },
    responses: { 200: { description: "The document", schema: { type: "object" } } },
    handler: () => ({ status: 200, body: documentOf("passenger") }),
  });
  const published: Route[] = [...documentRoutes, docsPage, docsAsset, passengerHostDocument];
  return published;
}
