/**
 * Folder cycles (README "Layout"): no two folders import each other, even through different
 * modules (src/app/allocation -> src/app/cases and back is one). The composition (src/main.ts,
 * src/config.ts, src/logger.ts and the top files of services/) imports everything by design, so it
 * is left out of this cruise; .dependency-cruiser.cjs holds it to its own rules.
 */
const layers = require("./.dependency-cruiser.cjs");

const COMPOSITION = "^(src/(main|config|logger)|services/(module|hosts|http-server))[.]ts$";

module.exports = {
  forbidden: [
    {
      name: "no-folder-cycle",
      comment: "Two folders import each other: one of them holds what both need; move it down.",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
  ],
  options: { ...layers.options, exclude: { path: ["node_modules", COMPOSITION] } },
};
