import { readFileSync } from "node:fs";

/**
 * The Node flags `npm start` runs the service with, read from package.json's start script, so that
 * a bench runs the platform as it ships (a larger young generation, for one, changes how much of
 * its time goes to garbage collection).
 */
export function serviceNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    scripts: { start: string };
  };
  const words = scripts.start.split(/\s+/);
  const flags: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] === "--import") i++;
    else if (words[i]!.startsWith("--")) flags.push(words[i]!);
  }
  return flags;
}
