/** Operations of the `keys` area. See docs/architecture.md, "How to add an operation". */
export const keys = {};
