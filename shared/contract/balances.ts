/** Operations of the `balances` area. See docs/architecture.md, "How to add an operation". */
export const balances = {};
