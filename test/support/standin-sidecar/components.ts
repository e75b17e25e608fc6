import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";

/** The part of a `kind: Component` document the stand-in reads. */
interface ComponentDocument {
  kind?: string;
  metadata?: { name?: string };
  spec?: { type?: string; metadata?: Array<{ name?: string; value?: unknown }> };
}

/**
 * The `consumerID` metadata of every pub/sub component in a resources folder, by component name,
 * for the stand-in's `consumerIDs`. Without them the stand-in, like daprd, reads each component
 * with the app id as its consumer group: two components on one broker (pubsub and pubsub-replicas)
 * would then share the app's group and split the topic's events between them, where the folder
 * gives the replica component a group per sidecar.
 */
export function consumerIDsFrom(folder: string): Record<string, string> {
  const consumerIDs: Record<string, string> = {};
  for (const file of readdirSync(folder).filter((name) => /\.ya?ml$/.test(name))) {
    for (const document of parseAllDocuments(readFileSync(path.join(folder, file), "utf8"))) {
      const component = document.toJS() as ComponentDocument | null;
      if (component?.kind !== "Component" || !component.spec?.type?.startsWith("pubsub.")) continue;
      const name = component.metadata?.name;
      const consumerID = component.spec.metadata?.find((m) => m.name === "consumerID")?.value;
      if (name && typeof consumerID === "string") consumerIDs[name] = consumerID;
    }
  }
  return consumerIDs;
}

/** An input binding component as the stand-in delivers it: to the app's `route` (daprd's default: `/<name>`). */
export interface InputBindingComponent {
  name: string;
  type: string;
  route: string;
}

/**
 * The input binding components of a resources folder that load in `appId`'s sidecar (scoped to it,
 * or to every app), with `direction` naming input or left unset, as daprd reads them.
 */
export function inputBindingsFrom(folder: string, appId: string): InputBindingComponent[] {
  const bindings: InputBindingComponent[] = [];
  for (const file of readdirSync(folder).filter((name) => /\.ya?ml$/.test(name))) {
    for (const document of parseAllDocuments(readFileSync(path.join(folder, file), "utf8"))) {
      const component = document.toJS() as (ComponentDocument & { scopes?: string[] }) | null;
      const type = component?.spec?.type;
      const name = component?.metadata?.name;
      if (component?.kind !== "Component" || !type?.startsWith("bindings.") || !name) continue;
      if (component.scopes?.length && !component.scopes.includes(appId)) continue;
      const value = (key: string) => component.spec?.metadata?.find((m) => m.name === key)?.value;
      const direction = value("direction");
      if (typeof direction === "string" && !direction.includes("input")) continue;
      const route = value("route");
      bindings.push({ name, type, route: typeof route === "string" ? route : `/${name}` });
    }
  }
  return bindings;
}
