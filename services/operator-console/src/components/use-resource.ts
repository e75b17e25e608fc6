import { useCallback, useEffect, useState } from "preact/hooks";
import { api } from "../api.js";

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Reads again (after a live event, or an action); the current data stays shown meanwhile. */
  reload(): void;
}

/** A GET of the operator API, read again when `path` changes; `path` undefined reads nothing. */
export function useResource<T>(path: string | undefined): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: !!path });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!path) return;
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    api<T>("GET", path).then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState((s) => ({ ...s, error, loading: false })),
    );
    return () => {
      current = false;
    };
  }, [path, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
