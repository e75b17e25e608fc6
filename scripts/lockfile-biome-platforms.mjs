// Adds lock entries for Biome's platform binaries that the local registry mirror does not carry,
// so `npm ci` accepts the lock; npm skips them on non-matching platforms without fetching.
import { readFileSync, writeFileSync } from "node:fs";
const path = process.argv[2];
const lock = JSON.parse(readFileSync(path, "utf8"));
const biome = lock.packages["node_modules/@biomejs/biome"];
const platforms = {
  "cli-android-arm64": { os: ["android"], cpu: ["arm64"] },
  "cli-android-x64": { os: ["android"], cpu: ["x64"] },
  "cli-darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "cli-darwin-x64": { os: ["darwin"], cpu: ["x64"] },
  "cli-linux-arm64": { os: ["linux"], cpu: ["arm64"], libc: ["glibc"] },
  "cli-linux-arm64-musl": { os: ["linux"], cpu: ["arm64"], libc: ["musl"] },
  "cli-linux-x64": { os: ["linux"], cpu: ["x64"], libc: ["glibc"] },
  "cli-linux-x64-musl": { os: ["linux"], cpu: ["x64"], libc: ["musl"] },
  "cli-win32-arm64": { os: ["win32"], cpu: ["arm64"] },
  "cli-win32-x64": { os: ["win32"], cpu: ["x64"] },
};
let added = 0;
for (const [name, target] of Object.entries(platforms)) {
  const key = `node_modules/@biomejs/${name}`;
  if (lock.packages[key]) continue;
  lock.packages[key] = {
    version: biome.version,
    ...target,
    dev: true,
    license: "MIT OR Apache-2.0",
    optional: true,
    engines: { node: ">=14.21.3" },
  };
  added++;
}
// npm orders lock entries by English locale collation (koa__router before koa-compose), not by code
// point; sorting the same way keeps the next `npm install` from rewriting the file.
const byLocale = new Intl.Collator("en").compare;
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => byLocale(a, b)));
lock.packages = sorted;
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} entries`);
