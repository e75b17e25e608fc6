import { join } from "node:path";
import { build } from "vite";

export interface FrontEnd {
  /** Its source folder under services/ and its output folder under dist/ui/. */
  name: "operator-console" | "passenger-app";
  /** Where its API serves it: the path every asset URL starts with. */
  base: string;
}

export const FRONT_ENDS: readonly FrontEnd[] = [
  { name: "operator-console", base: "/console/" },
  { name: "passenger-app", base: "/" },
];

/**
 * One front end built for production: Preact's JSX runtime, hashed asset names (served immutable),
 * no source maps shipped to browsers of passengers.
 */
export async function frontEndBuild(projectRoot: string, frontEnd: FrontEnd): Promise<void> {
  await build({
    root: join(projectRoot, "services", frontEnd.name),
    base: frontEnd.base,
    configFile: false,
    logLevel: "warn",
    oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
    build: {
      outDir: join(projectRoot, "dist", "ui", frontEnd.name),
      emptyOutDir: true,
      target: "es2022",
    },
  });
}
