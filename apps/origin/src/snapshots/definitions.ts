/**
 * The series' fields and row builders live in packages/sql (`@scangate/sql/series`), shared with
 * the edge; the snapshot modules, routes and scripts read them from here.
 */
export * from "@scangate/sql/series";
