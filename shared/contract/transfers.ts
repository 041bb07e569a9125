/** Operations of the `transfers` area. See docs/architecture.md, "How to add an operation". */
export const transfers = {};
