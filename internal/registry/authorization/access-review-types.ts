/**
 * The authorization.k8s.io/v1 access review shapes as they arrive in JSON (SubjectAccessReview,
 * LocalSubjectAccessReview, SelfSubjectAccessReview) and the status they are answered with.
 * Fields are optional because nothing but the schema has checked them yet.
 */

/** metav1.FieldSelectorRequirement / LabelSelectorRequirement in a review's selector. */
export interface SelectorRequirementSpec {
  readonly key?: string;
  readonly operator?: string;
  readonly values?: readonly string[] | null;
}

/** authorizationv1.FieldSelectorAttributes and LabelSelectorAttributes. */
export interface SelectorAttributesSpec {
  readonly rawSelector?: string;
  readonly requirements?: readonly SelectorRequirementSpec[] | null;
}

/** authorizationv1.ResourceAttributes. */
export interface ResourceAttributesSpec {
  readonly namespace?: string;
  readonly verb?: string;
  readonly group?: string;
  readonly version?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly name?: string;
  readonly fieldSelector?: SelectorAttributesSpec | null;
  readonly labelSelector?: SelectorAttributesSpec | null;
}

/** authorizationv1.NonResourceAttributes. */
export interface NonResourceAttributesSpec {
  readonly path?: string;
  readonly verb?: string;
}

/** SubjectAccessReviewSpec (SelfSubjectAccessReviewSpec is its first two fields). */
export interface AccessReviewSpec {
  readonly resourceAttributes?: ResourceAttributesSpec | null;
  readonly nonResourceAttributes?: NonResourceAttributesSpec | null;
  readonly user?: string;
  readonly groups?: readonly string[] | null;
  readonly extra?: Readonly<Record<string, readonly string[] | null>> | null;
  readonly uid?: string;
}

/** SubjectAccessReviewStatus as kube writes it: allowed always, the rest when set. */
export interface AccessReviewStatus {
  readonly allowed: boolean;
  readonly denied?: boolean;
  readonly reason?: string;
  readonly evaluationError?: string;
}
