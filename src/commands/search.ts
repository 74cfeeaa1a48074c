/** Moved to src/ops/search.ts (the ops layer filters a listing); kept for the commands that import it here. */
export * from "../ops/search.js";
