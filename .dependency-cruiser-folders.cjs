/**
 * Folder cycles: no two folders import each other, even through different modules
 * (src/app/allocation -> src/app/cases and back is one); one of them holds what both need.
 * src/main.ts imports everything by design and shares the folder `src` with config.ts, which
 * services import, so it is left out of this cruise; .dependency-cruiser.cjs holds it to its rules.
 * A separate file because dependency-cruiser cannot leave a module out of one rule's folder graph.
 */
const layers = require("./.dependency-cruiser.cjs");

module.exports = {
  forbidden: [
    {
      name: "no-folder-cycle",
      comment: "Two folders import each other: move what both need into the lower one.",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
  ],
  options: { ...layers.options, exclude: { path: [...layers.options.exclude.path, "^src/main[.]ts$"] } },
};
