/**
 * The shapes of server-side Table printing: a column definition (meta.k8s.io TableColumnDefinition)
 * and a printer, which turns one object into the cells of its row. Printers mirror the ones
 * kube-apiserver 1.33 registers (pkg/printers/internalversion), which the server always runs in
 * wide mode, so priority-1 columns are always filled and clients hide them unless asked.
 */

/** One column of a Table (metav1.TableColumnDefinition). */
export interface TableColumn {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

/** A condition of one Table row (metav1.TableRowCondition), e.g. a finished pod's Completed. */
export interface TableRowCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

/** Prints the rows of one resource; stateless, so one instance serves every request. */
export interface TablePrinter {
  readonly columns: readonly TableColumn[];
  /**
   * The cells of one row for obj (JSON in the endpoint's version); now is the time ages are
   * measured against. Never mutates obj; tolerates missing or mistyped fields as Go zero values.
   */
  cells(obj: Record<string, unknown>, now: Date): unknown[];
  /** The row's conditions, when kube sets any for obj (pods that succeeded or failed). */
  rowConditions?(obj: Record<string, unknown>): readonly TableRowCondition[] | undefined;
}
