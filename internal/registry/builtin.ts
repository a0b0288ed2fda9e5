/**
 * The built-in resources Capstan serves, as resource modules. Namespaces are registered by the
 * server itself, ahead of these, because the namespace lifecycle depends on them.
 */
import { mutatingAdmissionPoliciesModule } from './admissionregistration/mutatingadmissionpolicies/store.js';
import { mutatingAdmissionPolicyBindingsModule } from './admissionregistration/mutatingadmissionpolicybindings/store.js';
import { mutatingWebhookConfigurationsModule } from './admissionregistration/mutatingwebhookconfigurations/store.js';
import { validatingAdmissionPoliciesModule } from './admissionregistration/validatingadmissionpolicies/store.js';
import { validatingAdmissionPolicyBindingsModule } from './admissionregistration/validatingadmissionpolicybindings/store.js';
import { validatingWebhookConfigurationsModule } from './admissionregistration/validatingwebhookconfigurations/store.js';
import { customResourceDefinitionsModule } from './apiextensions/customresourcedefinitions/store.js';
import { apiServicesModule } from './apiregistration/apiservices/store.js';
import { selfSubjectReviewsModule } from './authentication/selfsubjectreviews/store.js';
import { tokenReviewsModule } from './authentication/tokenreviews/store.js';
import { localSubjectAccessReviewsModule } from './authorization/localsubjectaccessreviews/store.js';
import { selfSubjectAccessReviewsModule } from './authorization/selfsubjectaccessreviews/store.js';
import { selfSubjectRulesReviewsModule } from './authorization/selfsubjectrulesreviews/store.js';
import { subjectAccessReviewsModule } from './authorization/subjectaccessreviews/store.js';
import { storageVersionsModule } from './apiserverinternal/storageversions/store.js';
import { controllerRevisionsModule } from './apps/controllerrevisions/store.js';
import { daemonSetsModule } from './apps/daemonsets/store.js';
import { deploymentsModule } from './apps/deployments/store.js';
import { replicaSetsModule } from './apps/replicasets/store.js';
import { statefulSetsModule } from './apps/statefulsets/store.js';
import { horizontalPodAutoscalersModule } from './autoscaling/horizontalpodautoscalers/store.js';
import { cronJobsModule } from './batch/cronjobs/store.js';
import { jobsModule } from './batch/jobs/store.js';
import { certificateSigningRequestsModule } from './certificates/certificatesigningrequests/store.js';
import { clusterTrustBundlesModule } from './certificates/clustertrustbundles/store.js';
import { leaseCandidatesModule } from './coordination/leasecandidates/store.js';
import { leasesModule } from './coordination/leases/store.js';
import { configMapsModule } from './core/configmaps/store.js';
import { endpointsModule } from './core/endpoints/store.js';
import { eventsModule } from './core/events/store.js';
import { limitRangesModule } from './core/limitranges/store.js';
import { nodesModule } from './core/nodes/store.js';
import { persistentVolumeClaimsModule } from './core/persistentvolumeclaims/store.js';
import { persistentVolumesModule } from './core/persistentvolumes/store.js';
import { podsModule } from './core/pods/store.js';
import { podTemplatesModule } from './core/podtemplates/store.js';
import { replicationControllersModule } from './core/replicationcontrollers/store.js';
import { resourceQuotasModule } from './core/resourcequotas/store.js';
import { secretsModule } from './core/secrets/store.js';
import { serviceAccountsModule } from './core/serviceaccounts/store.js';
import { servicesModule } from './core/services/store.js';
import { endpointSlicesModule } from './discovery/endpointslices/store.js';
import { eventsV1Module } from './events/events/store.js';
import { flowSchemasModule } from './flowcontrol/flowschemas/store.js';
import { priorityLevelConfigurationsModule } from './flowcontrol/prioritylevelconfigurations/store.js';
import { ingressClassesModule } from './networking/ingressclasses/store.js';
import { ingressesModule } from './networking/ingresses/store.js';
import { ipAddressesModule } from './networking/ipaddresses/store.js';
import { networkPoliciesModule } from './networking/networkpolicies/store.js';
import { serviceCIDRsModule } from './networking/servicecidrs/store.js';
import { runtimeClassesModule } from './node/runtimeclasses/store.js';
import { podDisruptionBudgetsModule } from './policy/poddisruptionbudgets/store.js';
import { clusterRoleBindingsModule } from './rbac/clusterrolebindings/store.js';
import { clusterRolesModule } from './rbac/clusterroles/store.js';
import { roleBindingsModule } from './rbac/rolebindings/store.js';
import { rolesModule } from './rbac/roles/store.js';
import { deviceClassesModule } from './resource/deviceclasses/store.js';
import { deviceTaintRulesModule } from './resource/devicetaintrules/store.js';
import { resourceClaimsModule } from './resource/resourceclaims/store.js';
import { resourceClaimTemplatesModule } from './resource/resourceclaimtemplates/store.js';
import { resourceSlicesModule } from './resource/resourceslices/store.js';
import { priorityClassesModule } from './scheduling/priorityclasses/store.js';
import { csiDriversModule } from './storage/csidrivers/store.js';
import { csiNodesModule } from './storage/csinodes/store.js';
import { csiStorageCapacitiesModule } from './storage/csistoragecapacities/store.js';
import { storageClassesModule } from './storage/storageclasses/store.js';
import { volumeAttachmentsModule } from './storage/volumeattachments/store.js';
import { volumeAttributesClassesModule } from './storage/volumeattributesclasses/store.js';
import { storageVersionMigrationsModule } from './storagemigration/storageversionmigrations/store.js';
import type { ResourceModule } from './registration.js';

/** Every built-in resource module except namespaces. Order is discovery-irrelevant; each module is independent. */
export const builtinResourceModules: ResourceModule[] = [
  configMapsModule,
  secretsModule,
  serviceAccountsModule,
  podsModule,
  servicesModule,
  nodesModule,
  endpointsModule,
  eventsModule,
  eventsV1Module,
  leasesModule,
  deploymentsModule,
  // Every other resource of Kubernetes 1.33, by API group folder.
  // admissionregistration
  mutatingAdmissionPoliciesModule,
  mutatingAdmissionPolicyBindingsModule,
  mutatingWebhookConfigurationsModule,
  validatingAdmissionPoliciesModule,
  validatingAdmissionPolicyBindingsModule,
  validatingWebhookConfigurationsModule,
  // apiextensions
  customResourceDefinitionsModule,
  // apiregistration
  apiServicesModule,
  // apiserverinternal
  storageVersionsModule,
  // apps
  controllerRevisionsModule,
  daemonSetsModule,
  replicaSetsModule,
  statefulSetsModule,
  // authentication and authorization: the review APIs (create only, never stored)
  tokenReviewsModule,
  selfSubjectReviewsModule,
  subjectAccessReviewsModule,
  localSubjectAccessReviewsModule,
  selfSubjectAccessReviewsModule,
  selfSubjectRulesReviewsModule,
  // autoscaling
  horizontalPodAutoscalersModule,
  // batch
  cronJobsModule,
  jobsModule,
  // certificates
  certificateSigningRequestsModule,
  clusterTrustBundlesModule,
  // coordination
  leaseCandidatesModule,
  // core
  limitRangesModule,
  persistentVolumeClaimsModule,
  persistentVolumesModule,
  podTemplatesModule,
  replicationControllersModule,
  resourceQuotasModule,
  // discovery
  endpointSlicesModule,
  // flowcontrol
  flowSchemasModule,
  priorityLevelConfigurationsModule,
  // networking
  ingressClassesModule,
  ingressesModule,
  ipAddressesModule,
  networkPoliciesModule,
  serviceCIDRsModule,
  // node
  runtimeClassesModule,
  // policy
  podDisruptionBudgetsModule,
  // rbac
  clusterRoleBindingsModule,
  clusterRolesModule,
  roleBindingsModule,
  rolesModule,
  // resource
  deviceClassesModule,
  deviceTaintRulesModule,
  resourceClaimsModule,
  resourceClaimTemplatesModule,
  resourceSlicesModule,
  // scheduling
  priorityClassesModule,
  // storage
  csiDriversModule,
  csiNodesModule,
  csiStorageCapacitiesModule,
  storageClassesModule,
  volumeAttachmentsModule,
  volumeAttributesClassesModule,
  // storagemigration
  storageVersionMigrationsModule,
];
