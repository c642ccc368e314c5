import type { Client, ClientMeta, Options as Options2, RequestResult, TDataShape } from './client/index.js';
import type { AccountingExportsCreateData, AccountingExportsCreateErrors, AccountingExportsCreateResponses, AccountingExportsGetData, AccountingExportsGetErrors, AccountingExportsGetResponses, AccountingExportsListData, AccountingExportsListErrors, AccountingExportsListResponses, AdaptersGetData, AdaptersGetErrors, AdaptersGetResponses, AdaptersListData, AdaptersListErrors, AdaptersListResponses, AuditListData, AuditListErrors, AuditListResponses, AuthAcceptInvitationData, AuthAcceptInvitationErrors, AuthAcceptInvitationResponses, AuthDeclineInvitationData, AuthDeclineInvitationErrors, AuthDeclineInvitationResponses, AuthInvitationsData, AuthInvitationsErrors, AuthInvitationsResponses, AuthLoginData, AuthLoginErrors, AuthLoginResponses, AuthMeData, AuthMeErrors, AuthMeResponses, AuthRevokeData, AuthRevokeErrors, AuthRevokeResponses, AuthSessionsData, AuthSessionsErrors, AuthSessionsResponses, DemoBusinessNotificationChannelsData, DemoBusinessNotificationChannelsErrors, DemoBusinessNotificationChannelsResponses, DemoBusinessScenarioReplayData, DemoBusinessScenarioReplayErrors, DemoBusinessScenarioReplayResponses, DemoConnectorCertificationData, DemoConnectorCertificationErrors, DemoConnectorCertificationResponses, DemoConnectorFixtureReplayData, DemoConnectorFixtureReplayErrors, DemoConnectorFixtureReplayResponses, DemoIntegrationRepairData, DemoIntegrationRepairErrors, DemoIntegrationRepairResponses, DemoNotificationDeliveryData, DemoNotificationDeliveryErrors, DemoNotificationDeliveryResponses, DemoProviderOnboardingData, DemoProviderOnboardingErrors, DemoProviderOnboardingResponses, DemoPublicData, DemoPublicErrors, DemoPublicResponses, DocumentsChangeStatusData, DocumentsChangeStatusErrors, DocumentsChangeStatusResponses, DocumentsCreateData, DocumentsCreateErrors, DocumentsCreateResponses, DocumentsGetData, DocumentsGetErrors, DocumentsGetResponses, DocumentsListData, DocumentsListErrors, DocumentsListResponses, EscalationPoliciesCreateData, EscalationPoliciesCreateErrors, EscalationPoliciesCreateResponses, EscalationPoliciesDeleteData, EscalationPoliciesDeleteErrors, EscalationPoliciesDeleteResponses, EscalationPoliciesGetData, EscalationPoliciesGetErrors, EscalationPoliciesGetResponses, EscalationPoliciesListData, EscalationPoliciesListErrors, EscalationPoliciesListResponses, EscalationPoliciesUpdateData, EscalationPoliciesUpdateErrors, EscalationPoliciesUpdateResponses, EventTypesListData, EventTypesListErrors, EventTypesListResponses, ExceptionsChangeStatusData, ExceptionsChangeStatusErrors, ExceptionsChangeStatusResponses, ExceptionsCreateData, ExceptionsCreateErrors, ExceptionsCreateResponses, ExceptionsGetData, ExceptionsGetErrors, ExceptionsGetResponses, ExceptionsListData, ExceptionsListErrors, ExceptionsListResponses, InboxListData, InboxListErrors, InboxListResponses, InboxReadAllData, InboxReadAllErrors, InboxReadAllResponses, InboxReadData, InboxReadErrors, InboxReadResponses, InboxSummaryData, InboxSummaryErrors, InboxSummaryResponses, InboxUnreadData, InboxUnreadErrors, InboxUnreadResponses, IntegrationConnectionsAuthorizeData, IntegrationConnectionsAuthorizeErrors, IntegrationConnectionsAuthorizeResponses, IntegrationConnectionsCreateData, IntegrationConnectionsCreateErrors, IntegrationConnectionsCreateResponses, IntegrationConnectionsDeleteData, IntegrationConnectionsDeleteErrors, IntegrationConnectionsDeleteResponses, IntegrationConnectionsDiagnoseData, IntegrationConnectionsDiagnoseErrors, IntegrationConnectionsDiagnoseResponses, IntegrationConnectionsGetData, IntegrationConnectionsGetErrors, IntegrationConnectionsGetResponses, IntegrationConnectionsListData, IntegrationConnectionsListErrors, IntegrationConnectionsListResponses, IntegrationConnectionsPreviewMappingData, IntegrationConnectionsPreviewMappingErrors, IntegrationConnectionsPreviewMappingResponses, IntegrationConnectionsUpdateData, IntegrationConnectionsUpdateErrors, IntegrationConnectionsUpdateResponses, IntegrationRepairsPreviewData, IntegrationRepairsPreviewErrors, IntegrationRepairsPreviewResponses, InvitationsListData, InvitationsListErrors, InvitationsListResponses, InvitationsRevokeData, InvitationsRevokeErrors, InvitationsRevokeResponses, MembersAddData, MembersAddErrors, MembersAddResponses, MembersListData, MembersListErrors, MembersListResponses, MembersRemoveData, MembersRemoveErrors, MembersRemoveResponses, MembersUpdateData, MembersUpdateErrors, MembersUpdateResponses, NotificationsCreateData, NotificationsCreateErrors, NotificationsCreateResponses, NotificationsGetData, NotificationsGetErrors, NotificationsGetResponses, NotificationsListData, NotificationsListErrors, NotificationsListResponses, OauthCallbackData, OauthCallbackErrors, OauthCallbackResponses, OpsMetricsData, OpsMetricsErrors, OpsMetricsResponses, PreferencesGetData, PreferencesGetErrors, PreferencesGetResponses, PreferencesPutData, PreferencesPutErrors, PreferencesPutResponses, PreviewsActionExecutionData, PreviewsActionExecutionErrors, PreviewsActionExecutionResponses, PreviewsActionPlanData, PreviewsActionPlanErrors, PreviewsActionPlanResponses, PreviewsApprovalGatewayData, PreviewsApprovalGatewayErrors, PreviewsApprovalGatewayResponses, PreviewsBriefingData, PreviewsBriefingErrors, PreviewsBriefingResponses, PreviewsDetectionData, PreviewsDetectionErrors, PreviewsDetectionResponses, PreviewsEscalationData, PreviewsEscalationErrors, PreviewsEscalationResponses, PreviewsIntakePipelineData, PreviewsIntakePipelineErrors, PreviewsIntakePipelineResponses, PublicHealthData, PublicHealthErrors, PublicHealthResponses, PublicOpenapiData, PublicOpenapiErrors, PublicOpenapiResponses, ReconciliationRunsCreateData, ReconciliationRunsCreateErrors, ReconciliationRunsCreateResponses, ReconciliationRunsGetData, ReconciliationRunsGetErrors, ReconciliationRunsGetResponses, ReconciliationRunsListData, ReconciliationRunsListErrors, ReconciliationRunsListResponses, ReviewItemsDecideData, ReviewItemsDecideErrors, ReviewItemsDecideResponses, ReviewItemsListData, ReviewItemsListErrors, ReviewItemsListResponses, TasksChangeStatusData, TasksChangeStatusErrors, TasksChangeStatusResponses, TasksCreateData, TasksCreateErrors, TasksCreateResponses, TasksGetData, TasksGetErrors, TasksGetResponses, TasksListData, TasksListErrors, TasksListResponses, TasksUpdateData, TasksUpdateErrors, TasksUpdateResponses, TenantsCreateData, TenantsCreateErrors, TenantsCreateResponses, TenantsGetData, TenantsGetErrors, TenantsGetResponses, TenantsListData, TenantsListErrors, TenantsListResponses, TenantsUpdateData, TenantsUpdateErrors, TenantsUpdateResponses, TimersListData, TimersListErrors, TimersListResponses, WebhookEndpointsCreateData, WebhookEndpointsCreateErrors, WebhookEndpointsCreateResponses, WebhookEndpointsDeleteData, WebhookEndpointsDeleteErrors, WebhookEndpointsDeleteResponses, WebhookEndpointsGetData, WebhookEndpointsGetErrors, WebhookEndpointsGetResponses, WebhookEndpointsListData, WebhookEndpointsListErrors, WebhookEndpointsListResponses, WebhookEndpointsRecoverData, WebhookEndpointsRecoverErrors, WebhookEndpointsRecoverResponses, WebhookEndpointsRotateSecretData, WebhookEndpointsRotateSecretErrors, WebhookEndpointsRotateSecretResponses, WebhookEndpointsTestData, WebhookEndpointsTestErrors, WebhookEndpointsTestResponses, WebhookEndpointsUpdateData, WebhookEndpointsUpdateErrors, WebhookEndpointsUpdateResponses, WebhookMessagesListData, WebhookMessagesListErrors, WebhookMessagesListResponses, WebhookMessagesResendData, WebhookMessagesResendErrors, WebhookMessagesResendResponses, WorkflowReplaysGetData, WorkflowReplaysGetErrors, WorkflowReplaysGetResponses, WorkflowRulesCreateData, WorkflowRulesCreateErrors, WorkflowRulesCreateResponses, WorkflowRulesDeleteData, WorkflowRulesDeleteErrors, WorkflowRulesDeleteResponses, WorkflowRulesGetData, WorkflowRulesGetErrors, WorkflowRulesGetResponses, WorkflowRulesListData, WorkflowRulesListErrors, WorkflowRulesListResponses, WorkflowRulesReplayData, WorkflowRulesReplayErrors, WorkflowRulesReplayResponses, WorkflowRulesTestData, WorkflowRulesTestErrors, WorkflowRulesTestResponses, WorkflowRulesUpdateData, WorkflowRulesUpdateErrors, WorkflowRulesUpdateResponses, WorkflowRunsGetData, WorkflowRunsGetErrors, WorkflowRunsGetResponses, WorkflowRunsListData, WorkflowRunsListErrors, WorkflowRunsListResponses, WorkflowRunsReplayData, WorkflowRunsReplayErrors, WorkflowRunsReplayResponses } from './types.gen.js';
export type Options<TData extends TDataShape = TDataShape, ThrowOnError extends boolean = boolean, TResponse = unknown> = Options2<TData, ThrowOnError, TResponse> & {
    /**
     * You can provide a client instance returned by `createClient()` instead of
     * individual options. This might be also useful if you want to implement a
     * custom client.
     */
    client?: Client;
    /**
     * You can pass arbitrary values through the `meta` object. This can be
     * used to access values that aren't defined as part of the SDK function.
     */
    meta?: keyof ClientMeta extends never ? Record<string, unknown> : ClientMeta;
};
/**
 * List the caller's own sessions
 *
 * Needs a bearer token.
 */
export declare const authSessions: <ThrowOnError extends boolean = true>(options?: Options<AuthSessionsData, ThrowOnError>) => RequestResult<AuthSessionsResponses, AuthSessionsErrors, ThrowOnError>;
/**
 * Log in: exchange email and password for a bearer token
 *
 * Public: no token.
 */
export declare const authLogin: <ThrowOnError extends boolean = true>(options: Options<AuthLoginData, ThrowOnError>) => RequestResult<AuthLoginResponses, AuthLoginErrors, ThrowOnError>;
/**
 * Revoke one of the caller’s sessions
 *
 * Needs a bearer token.
 */
export declare const authRevoke: <ThrowOnError extends boolean = true>(options: Options<AuthRevokeData, ThrowOnError>) => RequestResult<AuthRevokeResponses, AuthRevokeErrors, ThrowOnError>;
/**
 * The caller, their memberships and platform roles
 *
 * Needs a bearer token.
 */
export declare const authMe: <ThrowOnError extends boolean = true>(options?: Options<AuthMeData, ThrowOnError>) => RequestResult<AuthMeResponses, AuthMeErrors, ThrowOnError>;
/**
 * The caller's pending invitations (by the caller's email)
 *
 * Needs a bearer token.
 */
export declare const authInvitations: <ThrowOnError extends boolean = true>(options?: Options<AuthInvitationsData, ThrowOnError>) => RequestResult<AuthInvitationsResponses, AuthInvitationsErrors, ThrowOnError>;
/**
 * Accept an invitation: become a member of its tenant
 *
 * Needs a bearer token.
 */
export declare const authAcceptInvitation: <ThrowOnError extends boolean = true>(options: Options<AuthAcceptInvitationData, ThrowOnError>) => RequestResult<AuthAcceptInvitationResponses, AuthAcceptInvitationErrors, ThrowOnError>;
/**
 * Decline an invitation
 *
 * Needs a bearer token.
 */
export declare const authDeclineInvitation: <ThrowOnError extends boolean = true>(options: Options<AuthDeclineInvitationData, ThrowOnError>) => RequestResult<AuthDeclineInvitationResponses, AuthDeclineInvitationErrors, ThrowOnError>;
/**
 * The caller's tenants (every tenant for platform_admin)
 *
 * Needs a bearer token.
 */
export declare const tenantsList: <ThrowOnError extends boolean = true>(options?: Options<TenantsListData, ThrowOnError>) => RequestResult<TenantsListResponses, TenantsListErrors, ThrowOnError>;
/**
 * Create a tenant (platform_admin)
 *
 * Needs a bearer token and the `platform.admin` permission. Honours `Idempotency-Key`.
 */
export declare const tenantsCreate: <ThrowOnError extends boolean = true>(options: Options<TenantsCreateData, ThrowOnError>) => RequestResult<TenantsCreateResponses, TenantsCreateErrors, ThrowOnError>;
/**
 * Get a tenant
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const tenantsGet: <ThrowOnError extends boolean = true>(options: Options<TenantsGetData, ThrowOnError>) => RequestResult<TenantsGetResponses, TenantsGetErrors, ThrowOnError>;
/**
 * Rename a tenant or set its time zone
 *
 * Needs a bearer token and the `tenant.manage` permission in the tenant.
 */
export declare const tenantsUpdate: <ThrowOnError extends boolean = true>(options: Options<TenantsUpdateData, ThrowOnError>) => RequestResult<TenantsUpdateResponses, TenantsUpdateErrors, ThrowOnError>;
/**
 * List a tenant's members
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const membersList: <ThrowOnError extends boolean = true>(options: Options<MembersListData, ThrowOnError>) => RequestResult<MembersListResponses, MembersListErrors, ThrowOnError>;
/**
 * Invite a member by email (platform_admin: add at once)
 *
 * Needs a bearer token and the `members.manage` permission in the tenant. Honours `Idempotency-Key`.
 */
export declare const membersAdd: <ThrowOnError extends boolean = true>(options: Options<MembersAddData, ThrowOnError>) => RequestResult<MembersAddResponses, MembersAddErrors, ThrowOnError>;
/**
 * Remove a member
 *
 * Needs a bearer token and the `members.manage` permission in the tenant.
 */
export declare const membersRemove: <ThrowOnError extends boolean = true>(options: Options<MembersRemoveData, ThrowOnError>) => RequestResult<MembersRemoveResponses, MembersRemoveErrors, ThrowOnError>;
/**
 * Change a member's role
 *
 * Needs a bearer token and the `members.manage` permission in the tenant.
 */
export declare const membersUpdate: <ThrowOnError extends boolean = true>(options: Options<MembersUpdateData, ThrowOnError>) => RequestResult<MembersUpdateResponses, MembersUpdateErrors, ThrowOnError>;
/**
 * List a tenant's pending invitations
 *
 * Needs a bearer token and the `members.manage` permission in the tenant.
 */
export declare const invitationsList: <ThrowOnError extends boolean = true>(options: Options<InvitationsListData, ThrowOnError>) => RequestResult<InvitationsListResponses, InvitationsListErrors, ThrowOnError>;
/**
 * Revoke a pending invitation
 *
 * Needs a bearer token and the `members.manage` permission in the tenant.
 */
export declare const invitationsRevoke: <ThrowOnError extends boolean = true>(options: Options<InvitationsRevokeData, ThrowOnError>) => RequestResult<InvitationsRevokeResponses, InvitationsRevokeErrors, ThrowOnError>;
/**
 * List business exceptions, newest first
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const exceptionsList: <ThrowOnError extends boolean = true>(options: Options<ExceptionsListData, ThrowOnError>) => RequestResult<ExceptionsListResponses, ExceptionsListErrors, ThrowOnError>;
/**
 * Record a business exception
 *
 * Needs a bearer token and the `exceptions.write` permission in the tenant. Honours `Idempotency-Key`.
 */
export declare const exceptionsCreate: <ThrowOnError extends boolean = true>(options: Options<ExceptionsCreateData, ThrowOnError>) => RequestResult<ExceptionsCreateResponses, ExceptionsCreateErrors, ThrowOnError>;
/**
 * Get a business exception
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const exceptionsGet: <ThrowOnError extends boolean = true>(options: Options<ExceptionsGetData, ThrowOnError>) => RequestResult<ExceptionsGetResponses, ExceptionsGetErrors, ThrowOnError>;
/**
 * Acknowledge or resolve a business exception
 *
 * Needs a bearer token and the `exceptions.write` permission in the tenant.
 */
export declare const exceptionsChangeStatus: <ThrowOnError extends boolean = true>(options: Options<ExceptionsChangeStatusData, ThrowOnError>) => RequestResult<ExceptionsChangeStatusResponses, ExceptionsChangeStatusErrors, ThrowOnError>;
/**
 * List escalation policies, newest first
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const escalationPoliciesList: <ThrowOnError extends boolean = true>(options: Options<EscalationPoliciesListData, ThrowOnError>) => RequestResult<EscalationPoliciesListResponses, EscalationPoliciesListErrors, ThrowOnError>;
/**
 * Create an escalation policy
 *
 * Needs a bearer token and the `escalation_policies.manage` permission in the tenant. Honours `Idempotency-Key`.
 */
export declare const escalationPoliciesCreate: <ThrowOnError extends boolean = true>(options: Options<EscalationPoliciesCreateData, ThrowOnError>) => RequestResult<EscalationPoliciesCreateResponses, EscalationPoliciesCreateErrors, ThrowOnError>;
/**
 * Delete an escalation policy (its escalations stop)
 *
 * Needs a bearer token and the `escalation_policies.manage` permission in the tenant.
 */
export declare const escalationPoliciesDelete: <ThrowOnError extends boolean = true>(options: Options<EscalationPoliciesDeleteData, ThrowOnError>) => RequestResult<EscalationPoliciesDeleteResponses, EscalationPoliciesDeleteErrors, ThrowOnError>;
/**
 * Get an escalation policy
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const escalationPoliciesGet: <ThrowOnError extends boolean = true>(options: Options<EscalationPoliciesGetData, ThrowOnError>) => RequestResult<EscalationPoliciesGetResponses, EscalationPoliciesGetErrors, ThrowOnError>;
/**
 * Change an escalation policy (naming its current version)
 *
 * Needs a bearer token and the `escalation_policies.manage` permission in the tenant.
 */
export declare const escalationPoliciesUpdate: <ThrowOnError extends boolean = true>(options: Options<EscalationPoliciesUpdateData, ThrowOnError>) => RequestResult<EscalationPoliciesUpdateResponses, EscalationPoliciesUpdateErrors, ThrowOnError>;
/**
 * List the tenant's audit events, newest first
 *
 * Needs a bearer token and the `audit.read` permission in the tenant.
 */
export declare const auditList: <ThrowOnError extends boolean = true>(options: Options<AuditListData, ThrowOnError>) => RequestResult<AuditListResponses, AuditListErrors, ThrowOnError>;
/**
 * List the tenant's pending timers, soonest first
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const timersList: <ThrowOnError extends boolean = true>(options: Options<TimersListData, ThrowOnError>) => RequestResult<TimersListResponses, TimersListErrors, ThrowOnError>;
/**
 * List notifications with their attempts, newest first
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const notificationsList: <ThrowOnError extends boolean = true>(options: Options<NotificationsListData, ThrowOnError>) => RequestResult<NotificationsListResponses, NotificationsListErrors, ThrowOnError>;
/**
 * Draft a notification: policy check, then queued (202) or blocked (422 policy_rejected)
 *
 * Needs a bearer token and the `notifications.send` permission in the tenant. Honours `Idempotency-Key`.
 */
export declare const notificationsCreate: <ThrowOnError extends boolean = true>(options: Options<NotificationsCreateData, ThrowOnError>) => RequestResult<NotificationsCreateResponses, NotificationsCreateErrors, ThrowOnError>;
/**
 * Get a notification with its attempts
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const notificationsGet: <ThrowOnError extends boolean = true>(options: Options<NotificationsGetData, ThrowOnError>) => RequestResult<NotificationsGetResponses, NotificationsGetErrors, ThrowOnError>;
/**
 * List the caller's in-app notifications in the tenant, newest first
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const inboxList: <ThrowOnError extends boolean = true>(options: Options<InboxListData, ThrowOnError>) => RequestResult<InboxListResponses, InboxListErrors, ThrowOnError>;
/**
 * Count the caller's unread in-app notifications, in all and by category
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const inboxSummary: <ThrowOnError extends boolean = true>(options: Options<InboxSummaryData, ThrowOnError>) => RequestResult<InboxSummaryResponses, InboxSummaryErrors, ThrowOnError>;
/**
 * Mark one of the caller's in-app notifications read
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const inboxRead: <ThrowOnError extends boolean = true>(options: Options<InboxReadData, ThrowOnError>) => RequestResult<InboxReadResponses, InboxReadErrors, ThrowOnError>;
/**
 * Mark one of the caller's in-app notifications unread again
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const inboxUnread: <ThrowOnError extends boolean = true>(options: Options<InboxUnreadData, ThrowOnError>) => RequestResult<InboxUnreadResponses, InboxUnreadErrors, ThrowOnError>;
/**
 * Mark all of the caller's unread in-app notifications read, or those of one category
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const inboxReadAll: <ThrowOnError extends boolean = true>(options: Options<InboxReadAllData, ThrowOnError>) => RequestResult<InboxReadAllResponses, InboxReadAllErrors, ThrowOnError>;
/**
 * The caller's own notification preferences in the tenant: contacts, mutes, quiet hours
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const preferencesGet: <ThrowOnError extends boolean = true>(options: Options<PreferencesGetData, ThrowOnError>) => RequestResult<PreferencesGetResponses, PreferencesGetErrors, ThrowOnError>;
/**
 * Replace the caller's own notification preferences in the tenant (audited without the addresses)
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const preferencesPut: <ThrowOnError extends boolean = true>(options: Options<PreferencesPutData, ThrowOnError>) => RequestResult<PreferencesPutResponses, PreferencesPutErrors, ThrowOnError>;
/**
 * List operator review items of every kind (notifications, workflow actions, integration issues, accounting exports), newest first
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const reviewItemsList: <ThrowOnError extends boolean = true>(options: Options<ReviewItemsListData, ThrowOnError>) => RequestResult<ReviewItemsListResponses, ReviewItemsListErrors, ThrowOnError>;
/**
 * Decide a review item of any kind: retry (the job again) or discard
 *
 * Needs a bearer token and the `review_items.decide` permission in the tenant.
 */
export declare const reviewItemsDecide: <ThrowOnError extends boolean = true>(options: Options<ReviewItemsDecideData, ThrowOnError>) => RequestResult<ReviewItemsDecideResponses, ReviewItemsDecideErrors, ThrowOnError>;
/**
 * List documents, newest first
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const documentsList: <ThrowOnError extends boolean = true>(options: Options<DocumentsListData, ThrowOnError>) => RequestResult<DocumentsListResponses, DocumentsListErrors, ThrowOnError>;
/**
 * Record an invoice, payment or credit note (as draft)
 *
 * Needs a bearer token and the `documents.create` permission in the tenant. Honours `Idempotency-Key`.
 */
export declare const documentsCreate: <ThrowOnError extends boolean = true>(options: Options<DocumentsCreateData, ThrowOnError>) => RequestResult<DocumentsCreateResponses, DocumentsCreateErrors, ThrowOnError>;
/**
 * Get a document
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const documentsGet: <ThrowOnError extends boolean = true>(options: Options<DocumentsGetData, ThrowOnError>) => RequestResult<DocumentsGetResponses, DocumentsGetErrors, ThrowOnError>;
/**
 * Open, pay or void a document
 *
 * Needs a bearer token and the `documents.create` permission in the tenant.
 */
export declare const documentsChangeStatus: <ThrowOnError extends boolean = true>(options: Options<DocumentsChangeStatusData, ThrowOnError>) => RequestResult<DocumentsChangeStatusResponses, DocumentsChangeStatusErrors, ThrowOnError>;
/**
 * List tasks, newest first
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const tasksList: <ThrowOnError extends boolean = true>(options: Options<TasksListData, ThrowOnError>) => RequestResult<TasksListResponses, TasksListErrors, ThrowOnError>;
/**
 * Create a task
 *
 * Needs a bearer token and the `tasks.write` permission in the tenant. Honours `Idempotency-Key`.
 */
export declare const tasksCreate: <ThrowOnError extends boolean = true>(options: Options<TasksCreateData, ThrowOnError>) => RequestResult<TasksCreateResponses, TasksCreateErrors, ThrowOnError>;
/**
 * Get a task
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const tasksGet: <ThrowOnError extends boolean = true>(options: Options<TasksGetData, ThrowOnError>) => RequestResult<TasksGetResponses, TasksGetErrors, ThrowOnError>;
/**
 * Change a task's title, description, assignee or due date
 *
 * Needs a bearer token and the `tasks.write` permission in the tenant.
 */
export declare const tasksUpdate: <ThrowOnError extends boolean = true>(options: Options<TasksUpdateData, ThrowOnError>) => RequestResult<TasksUpdateResponses, TasksUpdateErrors, ThrowOnError>;
/**
 * Start, reopen, complete or cancel a task
 *
 * Needs a bearer token and the `tasks.write` permission in the tenant.
 */
export declare const tasksChangeStatus: <ThrowOnError extends boolean = true>(options: Options<TasksChangeStatusData, ThrowOnError>) => RequestResult<TasksChangeStatusResponses, TasksChangeStatusErrors, ThrowOnError>;
/**
 * List workflow rules, newest first
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const workflowRulesList: <ThrowOnError extends boolean = true>(options: Options<WorkflowRulesListData, ThrowOnError>) => RequestResult<WorkflowRulesListResponses, WorkflowRulesListErrors, ThrowOnError>;
/**
 * Create a workflow rule
 *
 * Needs a bearer token and the `workflow_rules.manage` permission in the tenant. Honours `Idempotency-Key`.
 */
export declare const workflowRulesCreate: <ThrowOnError extends boolean = true>(options: Options<WorkflowRulesCreateData, ThrowOnError>) => RequestResult<WorkflowRulesCreateResponses, WorkflowRulesCreateErrors, ThrowOnError>;
/**
 * Delete a workflow rule
 *
 * Needs a bearer token and the `workflow_rules.manage` permission in the tenant.
 */
export declare const workflowRulesDelete: <ThrowOnError extends boolean = true>(options: Options<WorkflowRulesDeleteData, ThrowOnError>) => RequestResult<WorkflowRulesDeleteResponses, WorkflowRulesDeleteErrors, ThrowOnError>;
/**
 * Get a workflow rule
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const workflowRulesGet: <ThrowOnError extends boolean = true>(options: Options<WorkflowRulesGetData, ThrowOnError>) => RequestResult<WorkflowRulesGetResponses, WorkflowRulesGetErrors, ThrowOnError>;
/**
 * Change a workflow rule (naming its current version)
 *
 * Needs a bearer token and the `workflow_rules.manage` permission in the tenant.
 */
export declare const workflowRulesUpdate: <ThrowOnError extends boolean = true>(options: Options<WorkflowRulesUpdateData, ThrowOnError>) => RequestResult<WorkflowRulesUpdateResponses, WorkflowRulesUpdateErrors, ThrowOnError>;
/**
 * Try a workflow rule on a sample event: what it would do, changing nothing
 *
 * Needs a bearer token and the `workflow_rules.manage` permission in the tenant.
 */
export declare const workflowRulesTest: <ThrowOnError extends boolean = true>(options: Options<WorkflowRulesTestData, ThrowOnError>) => RequestResult<WorkflowRulesTestResponses, WorkflowRulesTestErrors, ThrowOnError>;
/**
 * List the rules' runs, newest first (by rule, status, subject, since)
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const workflowRunsList: <ThrowOnError extends boolean = true>(options: Options<WorkflowRunsListData, ThrowOnError>) => RequestResult<WorkflowRunsListResponses, WorkflowRunsListErrors, ThrowOnError>;
/**
 * Replay an ended run: its actions not done run again with the rule as it is now
 *
 * Needs a bearer token and the `workflow_rules.manage` permission in the tenant.
 */
export declare const workflowRunsReplay: <ThrowOnError extends boolean = true>(options: Options<WorkflowRunsReplayData, ThrowOnError>) => RequestResult<WorkflowRunsReplayResponses, WorkflowRunsReplayErrors, ThrowOnError>;
/**
 * Replay a rule's failed runs of a period (at most 1,000), asynchronously
 *
 * Needs a bearer token and the `workflow_rules.manage` permission in the tenant.
 */
export declare const workflowRulesReplay: <ThrowOnError extends boolean = true>(options: Options<WorkflowRulesReplayData, ThrowOnError>) => RequestResult<WorkflowRulesReplayResponses, WorkflowRulesReplayErrors, ThrowOnError>;
/**
 * A rule replay's progress: queued, replayed, skipped
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const workflowReplaysGet: <ThrowOnError extends boolean = true>(options: Options<WorkflowReplaysGetData, ThrowOnError>) => RequestResult<WorkflowReplaysGetResponses, WorkflowReplaysGetErrors, ThrowOnError>;
/**
 * Get a workflow run: its trigger, subject and each action's outcome
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const workflowRunsGet: <ThrowOnError extends boolean = true>(options: Options<WorkflowRunsGetData, ThrowOnError>) => RequestResult<WorkflowRunsGetResponses, WorkflowRunsGetErrors, ThrowOnError>;
/**
 * The adapter catalog: every adapter a tenant can connect, with its contract
 *
 * Needs a bearer token.
 */
export declare const adaptersList: <ThrowOnError extends boolean = true>(options?: Options<AdaptersListData, ThrowOnError>) => RequestResult<AdaptersListResponses, AdaptersListErrors, ThrowOnError>;
/**
 * An adapter's contract: config schema, scopes, mapping keys, failure modes, operations
 *
 * Needs a bearer token.
 */
export declare const adaptersGet: <ThrowOnError extends boolean = true>(options: Options<AdaptersGetData, ThrowOnError>) => RequestResult<AdaptersGetResponses, AdaptersGetErrors, ThrowOnError>;
/**
 * List the tenant's connections, newest first
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const integrationConnectionsList: <ThrowOnError extends boolean = true>(options: Options<IntegrationConnectionsListData, ThrowOnError>) => RequestResult<IntegrationConnectionsListResponses, IntegrationConnectionsListErrors, ThrowOnError>;
/**
 * Connect the tenant to an adapter (the secret is write-only)
 *
 * Needs a bearer token and the `integrations.manage` permission in the tenant. Honours `Idempotency-Key`.
 */
export declare const integrationConnectionsCreate: <ThrowOnError extends boolean = true>(options: Options<IntegrationConnectionsCreateData, ThrowOnError>) => RequestResult<IntegrationConnectionsCreateResponses, IntegrationConnectionsCreateErrors, ThrowOnError>;
/**
 * Delete a connection and its secret
 *
 * Needs a bearer token and the `integrations.manage` permission in the tenant.
 */
export declare const integrationConnectionsDelete: <ThrowOnError extends boolean = true>(options: Options<IntegrationConnectionsDeleteData, ThrowOnError>) => RequestResult<IntegrationConnectionsDeleteResponses, IntegrationConnectionsDeleteErrors, ThrowOnError>;
/**
 * Get a connection (never its secret: only whether one is set)
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const integrationConnectionsGet: <ThrowOnError extends boolean = true>(options: Options<IntegrationConnectionsGetData, ThrowOnError>) => RequestResult<IntegrationConnectionsGetResponses, IntegrationConnectionsGetErrors, ThrowOnError>;
/**
 * Change, disable or re-enable a connection; replace or remove its secret
 *
 * Needs a bearer token and the `integrations.manage` permission in the tenant.
 */
export declare const integrationConnectionsUpdate: <ThrowOnError extends boolean = true>(options: Options<IntegrationConnectionsUpdateData, ThrowOnError>) => RequestResult<IntegrationConnectionsUpdateResponses, IntegrationConnectionsUpdateErrors, ThrowOnError>;
/**
 * Check a connection (config, secret, scopes, mapping, a real request to the provider); a failing check opens an integration issue
 *
 * Needs a bearer token and the `integrations.manage` permission in the tenant.
 */
export declare const integrationConnectionsDiagnose: <ThrowOnError extends boolean = true>(options: Options<IntegrationConnectionsDiagnoseData, ThrowOnError>) => RequestResult<IntegrationConnectionsDiagnoseResponses, IntegrationConnectionsDiagnoseErrors, ThrowOnError>;
/**
 * Start an OAuth 2 connection (Xero, QuickBooks Online): the provider's consent URL with a single-use state valid 10 minutes
 *
 * Needs a bearer token and the `integrations.manage` permission in the tenant.
 */
export declare const integrationConnectionsAuthorize: <ThrowOnError extends boolean = true>(options: Options<IntegrationConnectionsAuthorizeData, ThrowOnError>) => RequestResult<IntegrationConnectionsAuthorizeResponses, IntegrationConnectionsAuthorizeErrors, ThrowOnError>;
/**
 * What the connection's mapping (or the given one) makes of a provider record; persists nothing
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const integrationConnectionsPreviewMapping: <ThrowOnError extends boolean = true>(options: Options<IntegrationConnectionsPreviewMappingData, ThrowOnError>) => RequestResult<IntegrationConnectionsPreviewMappingResponses, IntegrationConnectionsPreviewMappingErrors, ThrowOnError>;
/**
 * What would repair a connection's problems: changes, steps and calls; persists nothing
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const integrationRepairsPreview: <ThrowOnError extends boolean = true>(options: Options<IntegrationRepairsPreviewData, ThrowOnError>) => RequestResult<IntegrationRepairsPreviewResponses, IntegrationRepairsPreviewErrors, ThrowOnError>;
/**
 * List the tenant's reconciliation runs, newest first
 *
 * Needs a bearer token and the `integrations.manage` permission in the tenant.
 */
export declare const reconciliationRunsList: <ThrowOnError extends boolean = true>(options: Options<ReconciliationRunsListData, ThrowOnError>) => RequestResult<ReconciliationRunsListResponses, ReconciliationRunsListErrors, ThrowOnError>;
/**
 * Queue a reconciliation of the provider's records with the tenant's documents
 *
 * Needs a bearer token and the `integrations.manage` permission in the tenant. Honours `Idempotency-Key`.
 */
export declare const reconciliationRunsCreate: <ThrowOnError extends boolean = true>(options: Options<ReconciliationRunsCreateData, ThrowOnError>) => RequestResult<ReconciliationRunsCreateResponses, ReconciliationRunsCreateErrors, ThrowOnError>;
/**
 * Get a reconciliation run: its counts and the exceptions of its mismatches
 *
 * Needs a bearer token and the `integrations.manage` permission in the tenant.
 */
export declare const reconciliationRunsGet: <ThrowOnError extends boolean = true>(options: Options<ReconciliationRunsGetData, ThrowOnError>) => RequestResult<ReconciliationRunsGetResponses, ReconciliationRunsGetErrors, ThrowOnError>;
/**
 * The provider's redirect after consent: exchanges the code, keeps the tokens as the connection's secret, answers a short page
 *
 * Public: no token.
 */
export declare const oauthCallback: <ThrowOnError extends boolean = true>(options?: Options<OauthCallbackData, ThrowOnError>) => RequestResult<OauthCallbackResponses, OauthCallbackErrors, ThrowOnError>;
/**
 * What needs attention for a role, with a risk level (persists nothing)
 *
 * Needs a bearer token and the `previews.run` permission in the tenant.
 */
export declare const previewsBriefing: <ThrowOnError extends boolean = true>(options: Options<PreviewsBriefingData, ThrowOnError>) => RequestResult<PreviewsBriefingResponses, PreviewsBriefingErrors, ThrowOnError>;
/**
 * Payment reconciliation findings over the documents (persists nothing)
 *
 * Needs a bearer token and the `previews.run` permission in the tenant.
 */
export declare const previewsDetection: <ThrowOnError extends boolean = true>(options: Options<PreviewsDetectionData, ThrowOnError>) => RequestResult<PreviewsDetectionResponses, PreviewsDetectionErrors, ThrowOnError>;
/**
 * Open exceptions triaged by severity and age into queues (persists nothing)
 *
 * Needs a bearer token and the `previews.run` permission in the tenant.
 */
export declare const previewsEscalation: <ThrowOnError extends boolean = true>(options: Options<PreviewsEscalationData, ThrowOnError>) => RequestResult<PreviewsEscalationResponses, PreviewsEscalationErrors, ThrowOnError>;
/**
 * Steps, lanes and approval gates to resolve the open exceptions (persists nothing)
 *
 * Needs a bearer token and the `previews.run` permission in the tenant.
 */
export declare const previewsActionPlan: <ThrowOnError extends boolean = true>(options: Options<PreviewsActionPlanData, ThrowOnError>) => RequestResult<PreviewsActionPlanResponses, PreviewsActionPlanErrors, ThrowOnError>;
/**
 * Dry run or approval request of action steps: preflight, before and after, rollback (persists nothing)
 *
 * Needs a bearer token and the `previews.run` permission in the tenant.
 */
export declare const previewsActionExecution: <ThrowOnError extends boolean = true>(options: Options<PreviewsActionExecutionData, ThrowOnError>) => RequestResult<PreviewsActionExecutionResponses, PreviewsActionExecutionErrors, ThrowOnError>;
/**
 * Approval requests, policy checks and approver routing with dual control (persists nothing)
 *
 * Needs a bearer token and the `previews.run` permission in the tenant.
 */
export declare const previewsApprovalGateway: <ThrowOnError extends boolean = true>(options: Options<PreviewsApprovalGatewayData, ThrowOnError>) => RequestResult<PreviewsApprovalGatewayResponses, PreviewsApprovalGatewayErrors, ThrowOnError>;
/**
 * Up to 8 provider events normalised, with detections, plan and drafts (persists nothing)
 *
 * Needs a bearer token and the `previews.run` permission in the tenant.
 */
export declare const previewsIntakePipeline: <ThrowOnError extends boolean = true>(options: Options<PreviewsIntakePipelineData, ThrowOnError>) => RequestResult<PreviewsIntakePipelineResponses, PreviewsIntakePipelineErrors, ThrowOnError>;
/**
 * Queue depths, outbox backlog and open review items (platform_admin)
 *
 * Needs a bearer token and the `platform.admin` permission.
 */
export declare const opsMetrics: <ThrowOnError extends boolean = true>(options?: Options<OpsMetricsData, ThrowOnError>) => RequestResult<OpsMetricsResponses, OpsMetricsErrors, ThrowOnError>;
/**
 * List accounting exports, newest first
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const accountingExportsList: <ThrowOnError extends boolean = true>(options: Options<AccountingExportsListData, ThrowOnError>) => RequestResult<AccountingExportsListResponses, AccountingExportsListErrors, ThrowOnError>;
/**
 * Export up to 50 documents to the tenant's accounting system
 *
 * Needs a bearer token and the `accounting_exports.create` permission in the tenant.
 */
export declare const accountingExportsCreate: <ThrowOnError extends boolean = true>(options: Options<AccountingExportsCreateData, ThrowOnError>) => RequestResult<AccountingExportsCreateResponses, AccountingExportsCreateErrors, ThrowOnError>;
/**
 * Get an accounting export with its documents and attempts
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const accountingExportsGet: <ThrowOnError extends boolean = true>(options: Options<AccountingExportsGetData, ThrowOnError>) => RequestResult<AccountingExportsGetResponses, AccountingExportsGetErrors, ThrowOnError>;
/**
 * The event catalog
 *
 * Needs a bearer token.
 */
export declare const eventTypesList: <ThrowOnError extends boolean = true>(options?: Options<EventTypesListData, ThrowOnError>) => RequestResult<EventTypesListResponses, EventTypesListErrors, ThrowOnError>;
/**
 * List webhook endpoints
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const webhookEndpointsList: <ThrowOnError extends boolean = true>(options: Options<WebhookEndpointsListData, ThrowOnError>) => RequestResult<WebhookEndpointsListResponses, WebhookEndpointsListErrors, ThrowOnError>;
/**
 * Create a webhook endpoint
 *
 * Needs a bearer token and the `webhooks.manage` permission in the tenant. Honours `Idempotency-Key`.
 */
export declare const webhookEndpointsCreate: <ThrowOnError extends boolean = true>(options: Options<WebhookEndpointsCreateData, ThrowOnError>) => RequestResult<WebhookEndpointsCreateResponses, WebhookEndpointsCreateErrors, ThrowOnError>;
/**
 * Delete a webhook endpoint
 *
 * Needs a bearer token and the `webhooks.manage` permission in the tenant.
 */
export declare const webhookEndpointsDelete: <ThrowOnError extends boolean = true>(options: Options<WebhookEndpointsDeleteData, ThrowOnError>) => RequestResult<WebhookEndpointsDeleteResponses, WebhookEndpointsDeleteErrors, ThrowOnError>;
/**
 * Get a webhook endpoint
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const webhookEndpointsGet: <ThrowOnError extends boolean = true>(options: Options<WebhookEndpointsGetData, ThrowOnError>) => RequestResult<WebhookEndpointsGetResponses, WebhookEndpointsGetErrors, ThrowOnError>;
/**
 * Change a webhook endpoint
 *
 * Needs a bearer token and the `webhooks.manage` permission in the tenant.
 */
export declare const webhookEndpointsUpdate: <ThrowOnError extends boolean = true>(options: Options<WebhookEndpointsUpdateData, ThrowOnError>) => RequestResult<WebhookEndpointsUpdateResponses, WebhookEndpointsUpdateErrors, ThrowOnError>;
/**
 * Rotate the signing secret
 *
 * Needs a bearer token and the `webhooks.manage` permission in the tenant.
 */
export declare const webhookEndpointsRotateSecret: <ThrowOnError extends boolean = true>(options: Options<WebhookEndpointsRotateSecretData, ThrowOnError>) => RequestResult<WebhookEndpointsRotateSecretResponses, WebhookEndpointsRotateSecretErrors, ThrowOnError>;
/**
 * Send a test message
 *
 * Needs a bearer token and the `webhooks.manage` permission in the tenant.
 */
export declare const webhookEndpointsTest: <ThrowOnError extends boolean = true>(options: Options<WebhookEndpointsTestData, ThrowOnError>) => RequestResult<WebhookEndpointsTestResponses, WebhookEndpointsTestErrors, ThrowOnError>;
/**
 * Resend failed messages since a time
 *
 * Needs a bearer token and the `webhooks.manage` permission in the tenant.
 */
export declare const webhookEndpointsRecover: <ThrowOnError extends boolean = true>(options: Options<WebhookEndpointsRecoverData, ThrowOnError>) => RequestResult<WebhookEndpointsRecoverResponses, WebhookEndpointsRecoverErrors, ThrowOnError>;
/**
 * An endpoint's delivery log
 *
 * Needs a bearer token and the `tenant.read` permission in the tenant.
 */
export declare const webhookMessagesList: <ThrowOnError extends boolean = true>(options: Options<WebhookMessagesListData, ThrowOnError>) => RequestResult<WebhookMessagesListResponses, WebhookMessagesListErrors, ThrowOnError>;
/**
 * Resend a message
 *
 * Needs a bearer token and the `webhooks.manage` permission in the tenant.
 */
export declare const webhookMessagesResend: <ThrowOnError extends boolean = true>(options: Options<WebhookMessagesResendData, ThrowOnError>) => RequestResult<WebhookMessagesResendResponses, WebhookMessagesResendErrors, ThrowOnError>;
/**
 * Health: ok while the table answers a read, else 503
 *
 * Public: no token.
 */
export declare const publicHealth: <ThrowOnError extends boolean = true>(options?: Options<PublicHealthData, ThrowOnError>) => RequestResult<PublicHealthResponses, PublicHealthErrors, ThrowOnError>;
/**
 * This OpenAPI 3.1 description
 *
 * Public: no token.
 */
export declare const publicOpenapi: <ThrowOnError extends boolean = true>(options?: Options<PublicOpenapiData, ThrowOnError>) => RequestResult<PublicOpenapiResponses, PublicOpenapiErrors, ThrowOnError>;
/**
 * Public demo: the fictional tenant, its previews and the embedded notification delivery contract
 *
 * Public: no token.
 */
export declare const demoPublic: <ThrowOnError extends boolean = true>(options?: Options<DemoPublicData, ThrowOnError>) => RequestResult<DemoPublicResponses, DemoPublicErrors, ThrowOnError>;
/**
 * Notification delivery contract: channels, outbox event, queues, gates, retry, dead letters, review, evidence
 *
 * Public: no token.
 */
export declare const demoNotificationDelivery: <ThrowOnError extends boolean = true>(options?: Options<DemoNotificationDeliveryData, ThrowOnError>) => RequestResult<DemoNotificationDeliveryResponses, DemoNotificationDeliveryErrors, ThrowOnError>;
/**
 * Notification channel matrix of the demo tenant
 *
 * Public: no token.
 */
export declare const demoBusinessNotificationChannels: <ThrowOnError extends boolean = true>(options?: Options<DemoBusinessNotificationChannelsData, ThrowOnError>) => RequestResult<DemoBusinessNotificationChannelsResponses, DemoBusinessNotificationChannelsErrors, ThrowOnError>;
/**
 * Walkthrough: certifying a connector against its adapter contract
 *
 * Public: no token.
 */
export declare const demoConnectorCertification: <ThrowOnError extends boolean = true>(options?: Options<DemoConnectorCertificationData, ThrowOnError>) => RequestResult<DemoConnectorCertificationResponses, DemoConnectorCertificationErrors, ThrowOnError>;
/**
 * Walkthrough: onboarding a delivery provider until its gate opens
 *
 * Public: no token.
 */
export declare const demoProviderOnboarding: <ThrowOnError extends boolean = true>(options?: Options<DemoProviderOnboardingData, ThrowOnError>) => RequestResult<DemoProviderOnboardingResponses, DemoProviderOnboardingErrors, ThrowOnError>;
/**
 * Walkthrough: diagnosing and repairing a failing integration
 *
 * Public: no token.
 */
export declare const demoIntegrationRepair: <ThrowOnError extends boolean = true>(options?: Options<DemoIntegrationRepairData, ThrowOnError>) => RequestResult<DemoIntegrationRepairResponses, DemoIntegrationRepairErrors, ThrowOnError>;
/**
 * Walkthrough: replaying sanitized connector fixtures through the mapping
 *
 * Public: no token.
 */
export declare const demoConnectorFixtureReplay: <ThrowOnError extends boolean = true>(options?: Options<DemoConnectorFixtureReplayData, ThrowOnError>) => RequestResult<DemoConnectorFixtureReplayResponses, DemoConnectorFixtureReplayErrors, ThrowOnError>;
/**
 * Walkthrough: a month-end business scenario replayed end to end
 *
 * Public: no token.
 */
export declare const demoBusinessScenarioReplay: <ThrowOnError extends boolean = true>(options?: Options<DemoBusinessScenarioReplayData, ThrowOnError>) => RequestResult<DemoBusinessScenarioReplayResponses, DemoBusinessScenarioReplayErrors, ThrowOnError>;
