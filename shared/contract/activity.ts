/** Operations of the `activity` area. See docs/architecture.md, "How to add an operation". */
export const activity = {};
