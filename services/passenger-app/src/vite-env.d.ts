/** Vite's `?worker` imports: a constructor of the bundled worker (a file of the build). */
declare module "*?worker" {
  const WorkerConstructor: new () => Worker;
  export default WorkerConstructor;
}

declare module "*.css";
