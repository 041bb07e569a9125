/** Operations of the `trade` area. See docs/architecture.md, "How to add an operation". */
export const trade = {};
