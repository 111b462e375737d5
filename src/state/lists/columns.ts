// What a list needs of a column: its sort value and its search text. The screens add headers,
// widths and cells (src/state/screens/spec.ts).

export interface ColumnSpec<T> {
  key: string;
  /** Value to sort by; `null` always sorts last whatever the direction. */
  sortValue?: (row: T) => string | number | null;
  /**
   * The sort value reads the row object and nothing else (no clock, no other list): a row object
   * kept from the last poll then keeps its value, and re-sorting after a poll looks only at the
   * rows that changed.
   */
  sortValueFromRowOnly?: boolean;
  /** Text the `/` filter searches; columns without it are not searchable. */
  searchText?: (row: T) => string;
}

export interface SortSpec {
  key: string;
  desc: boolean;
}
