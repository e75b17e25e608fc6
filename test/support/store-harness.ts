/** What a store contract runs against: a store, others over the same data, and how to let them go. */
export interface StoreHarness<S> {
  store: S;
  /** Further stores over the same data, standing in for other processes. */
  peers(count: number): Promise<S[]>;
  dispose(): Promise<void>;
}
