/**
 * Serves a built front end (dist/ui/<app>, see scripts/build-ui.ts) under a path of its API's host:
 * the operator console at /console/ on the operator host, the passenger app at / on the passenger
 * host. Hashed assets are cached for good; everything else, the service worker and the page
 * included, is revalidated so a new build reaches browsers at once. A path with no file extension
 * is one of the app's own screens and gets its page (client-side routing).
 */
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import type { Middleware } from "koa";
import { ProblemError } from "./errors.js";

export interface FrontEndOptions {
  /** The built folder (holds index.html). */
  folder: string;
  /** The path it is served under, ending in `/`: `/console/` or `/`. */
  base: string;
  /** The page's Content-Security-Policy; scripts and styles are the app's own files only. */
  contentSecurityPolicy?: string;
  /** Folders under `base` that belong to the API, not the app (`/v1/`, `/openapi/`): passed on. */
  apiPaths?: readonly string[];
}

const MEDIA_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

export const DEFAULT_FRONT_END_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

/**
 * The passenger app's policy: the default one, narrower where the app needs less. Its ALTCHA
 * widget solves the login challenge in Web Workers that are files of the build (the widget's
 * `altcha/external` bundle, whose PBKDF2 and SHA workers run on WebCrypto): workers from 'self'
 * only, no blob: workers and no WebAssembly. Images: the voucher's QR code is an SVG data URI. The
 * service worker and manifest are files of the app ('self'); the card issuer's page opens in its
 * own window (a link), so nothing of another origin is loaded or framed.
 */
export const PASSENGER_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

export function frontEnd(options: FrontEndOptions): Middleware {
  const { folder, base } = options;
  const root = normalize(folder) + sep;
  const csp = options.contentSecurityPolicy ?? DEFAULT_FRONT_END_CSP;
  const apiPaths = options.apiPaths ?? [];
  const mountPath = base.replace(/\/$/, "");
  const serve: Middleware = async (ctx, next) => {
    const relative = decodedPath(ctx.path.slice(base.length));
    if (relative === undefined) return next();
    // The folder itself is the app's first screen: its page, or the 503 below when there is none.
    const file = normalize(join(folder, relative || "index.html"));
    if (!file.startsWith(root)) return next();
    const own = await fileContent(file);
    if (own === undefined && extname(relative) !== "") return next();
    const path = own === undefined ? join(folder, "index.html") : file;
    const content = own ?? (await fileContent(path));
    if (content === undefined) {
      throw new ProblemError({
        status: 503,
        category: "unavailable",
        code: "front-end-not-built",
        detail: "This front end is not built: run `npm run build:ui` (npm start does it).",
      });
    }
    ctx.type = MEDIA_TYPES[extname(path)] ?? "application/octet-stream";
    ctx.set(
      "Cache-Control",
      relative.startsWith("assets/") && own !== undefined
        ? "public, max-age=31536000, immutable"
        : "no-cache",
    );
    ctx.set("X-Content-Type-Options", "nosniff");
    if (extname(path) === ".html") {
      ctx.set("Content-Security-Policy", csp);
      ctx.set("Referrer-Policy", "no-referrer");
    }
    ctx.body = content;
  };
  // Not an async function: most requests (the API's, below `base` on the passenger host) only pass.
  return (ctx, next) => {
    if (ctx.method !== "GET" && ctx.method !== "HEAD") return next();
    const path = ctx.path;
    if (path === mountPath && mountPath !== "") {
      ctx.redirect(`${base}${ctx.search}`);
      return;
    }
    if (!path.startsWith(base) || apiPaths.some((p) => path.startsWith(p) || `${path}/` === p)) return next();
    return serve(ctx, next);
  };
}

/** The file a request path names (empty for the folder itself); undefined when malformed. */
function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** A file's bytes, read in one go; undefined when there is no such file (or it is a folder). */
async function fileContent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return undefined;
    throw error;
  }
}
