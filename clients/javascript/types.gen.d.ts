export type ClientOptions = {
    baseUrl: 'http://127.0.0.1:3000' | 'https://{api_id}.execute-api.{region}.amazonaws.com' | (string & {});
};
export type AccessTokenRead = {
    access_token: string;
    /**
     * ISO 8601 timestamp
     */
    expires_at: string;
    token_type: 'bearer';
    user: UserRead;
};
export type AccountingExportAttemptRead = {
    attempt: number;
    /**
     * ISO 8601 timestamp
     */
    at: string;
    outcome: 'exported' | 'retryable_failure' | 'permanent_failure' | 'gated';
    error_code: string | null;
    error_message?: string | null;
    sent: number;
    booked: number;
};
export type AccountingExportCreate = {
    export_batch_id: string;
    documents: Array<ExportDocumentById | ExportDocumentInline>;
    integration_connection_id?: string | null;
    simulate_failure?: 'retryable' | 'permanent' | null;
};
export type AccountingExportItemRead = {
    index: number;
    document_ref: string;
    status: 'pending' | 'exported' | 'failed';
    error_code: string | null;
    retryable: boolean | null;
    error_message?: string | null;
    external_id: string | null;
};
export type AccountingExportList = {
    items: Array<AccountingExportRead>;
    next_cursor: string | null;
};
export type AccountingExportRead = {
    id: string;
    tenant_id: string;
    export_batch_id: string;
    integration_connection_id: string | null;
    status: 'queued' | 'exporting' | 'retrying' | 'exported' | 'partially_exported' | 'failed' | 'gated' | 'discarded';
    document_count: number;
    items: Array<AccountingExportItemRead>;
    attempts: Array<AccountingExportAttemptRead>;
    review_item_id: string | null;
    simulate_failure: 'retryable' | 'permanent' | null;
    created_by: string;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
    completed_at: string | null;
};
export type AdapterContractRead = {
    key: string;
    name: string;
    status: string;
    category: 'notification' | 'accounting' | 'bank_feed' | 'crm';
    direction: string;
    purpose: string;
    connection_profile_supported: boolean;
    connection_profile_required: boolean;
    channel: string | null;
    /**
     * A provider record as the provider sends it
     */
    auth_profile?: {
        [key: string]: unknown;
    };
    /**
     * A provider record as the provider sends it
     */
    config_example?: {
        [key: string]: unknown;
    };
    /**
     * A provider record as the provider sends it
     */
    config_schema?: {
        [key: string]: unknown;
    };
    /**
     * A provider record as the provider sends it
     */
    mapping_example?: {
        [key: string]: unknown;
    };
    /**
     * A provider record as the provider sends it
     */
    payload_schema?: {
        [key: string]: unknown;
    };
    capabilities?: Array<string>;
    default_connection_scopes?: Array<string>;
    failure_modes?: Array<string>;
    public_notes?: Array<string>;
    required_mapping_keys?: Array<string>;
    supported_connection_scopes?: Array<string>;
    operation_contracts?: Array<{
        [key: string]: unknown;
    }>;
};
export type AdapterList = {
    items: Array<AdapterContractRead>;
    next_cursor: string | null;
};
export type AuditEventList = {
    items: Array<AuditEventRead>;
    next_cursor: string | null;
};
export type AuditEventRead = {
    id: string;
    tenant_id: string;
    event_type: string;
    actor_id?: string | null;
    entity_type?: string | null;
    entity_id?: string | null;
    summary?: string | null;
    metadata_json?: string | null;
    created_at?: string | null;
};
export type AuthInvitationList = {
    items: Array<MemberInvitationRead>;
};
export type AuthMeRead = {
    user: UserRead;
    memberships: Array<MembershipRead>;
    platform_roles?: Array<'platform_admin'>;
};
export type AuthSessionList = {
    items: Array<AuthSessionRead>;
};
export type AuthSessionRead = {
    token_id: string;
    user_id: string;
    user_email: string;
    user_display_name: string;
    status: 'active' | 'revoked' | 'expired';
    /**
     * ISO 8601 timestamp
     */
    expires_at: string;
    tenant_ids: Array<string>;
    created_at?: string | null;
    last_used_at?: string | null;
    revoked_at?: string | null;
};
export type BusinessActionExecutionDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    summary: Array<DemoSummaryCard>;
    role: string;
    subject: string;
    executionPlan: Array<{
        step: number;
        action: string;
        target: string;
    }>;
    preflightChecks: Array<{
        check: string;
        result: string;
    }>;
    dryRunResults: Array<{
        step: number;
        wouldChange: string;
        result: string;
    }>;
    approvalGates: Array<{
        gate: string;
        approverRole: string;
        state: string;
    }>;
    rollbackPlan: Array<{
        step: number;
        undo: string;
    }>;
    dataBoundaries: Array<DemoDataBoundary>;
};
export type BusinessActionExecutionPreviewCreate = {
    execution_kind?: 'action_plan_execution_preview';
    execution_mode?: 'dry_run' | 'approval_request';
    role?: Role;
    include_preflight?: boolean;
    include_rollback_plan?: boolean;
    action_steps?: Array<{
        [key: string]: unknown;
    }>;
    subject_type?: string | null;
    subject_id?: string | null;
};
export type BusinessActionExecutionPreviewRead = {
    tenant_id: string;
    /**
     * ISO 8601 timestamp
     */
    generated_at: string;
    summary: string;
    api?: {
        [key: string]: string;
    };
    evidence?: Array<{
        [key: string]: unknown;
    }>;
    preview_digest: string;
    side_effects: 'none';
    subject_type?: string | null;
    subject_id?: string | null;
    execution_kind: 'action_plan_execution_preview';
    role: Role;
    status: 'previewed';
    execution_plan?: Array<{
        [key: string]: unknown;
    }>;
    preflight_checks?: Array<PreviewFinding>;
    dry_run_results?: Array<{
        [key: string]: unknown;
    }>;
    approval_gates?: Array<{
        [key: string]: unknown;
    }>;
    rollback_plan?: Array<{
        [key: string]: unknown;
    }>;
    data_boundaries?: Array<{
        [key: string]: unknown;
    }>;
};
export type BusinessActionPlanPreviewCreate = {
    plan_kind?: 'exception_resolution';
    role?: Role;
    include_resolved?: boolean;
    limit?: number;
    subject_type?: string | null;
    subject_id?: string | null;
};
export type BusinessActionPlanPreviewRead = {
    tenant_id: string;
    /**
     * ISO 8601 timestamp
     */
    generated_at: string;
    summary: string;
    api?: {
        [key: string]: string;
    };
    evidence?: Array<{
        [key: string]: unknown;
    }>;
    preview_digest: string;
    side_effects: 'none';
    subject_type?: string | null;
    subject_id?: string | null;
    plan_kind: 'exception_resolution';
    role: Role;
    risk_level: RiskLevel;
    steps?: Array<{
        [key: string]: unknown;
    }>;
    lanes?: Array<{
        [key: string]: unknown;
    }>;
    review_points?: Array<{
        [key: string]: unknown;
    }>;
    approval_gates?: Array<{
        [key: string]: unknown;
    }>;
    automation_candidates?: Array<{
        [key: string]: unknown;
    }>;
};
export type BusinessApprovalGatewayDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    summary: Array<DemoSummaryCard>;
    role: string;
    subject: string;
    approvalRequests: Array<{
        request: string;
        requesterRole: string;
        approverRole: string;
        state: string;
    }>;
    policyChecks: Array<{
        check: string;
        result: string;
    }>;
    approverRouting: Array<{
        condition: string;
        routeTo: string;
    }>;
    commitUnlocks: Array<{
        unlock: string;
        requires: string;
    }>;
    auditTrail: Array<{
        eventType: string;
        note: string;
    }>;
    dataBoundaries: Array<DemoDataBoundary>;
};
export type BusinessApprovalGatewayPreviewCreate = {
    approval_kind?: 'execution_approval_gateway';
    approver_role?: Role;
    requester_role?: Role;
    role?: Role;
    include_dual_control?: boolean;
    execution_plan?: Array<{
        [key: string]: unknown;
    }>;
    subject_type?: string | null;
    subject_id?: string | null;
};
export type BusinessApprovalGatewayPreviewRead = {
    tenant_id: string;
    /**
     * ISO 8601 timestamp
     */
    generated_at: string;
    summary: string;
    api?: {
        [key: string]: string;
    };
    evidence?: Array<{
        [key: string]: unknown;
    }>;
    preview_digest: string;
    side_effects: 'none';
    subject_type?: string | null;
    subject_id?: string | null;
    approval_kind: 'execution_approval_gateway';
    role: Role;
    status: 'previewed';
    approval_requests?: Array<{
        [key: string]: unknown;
    }>;
    policy_checks?: Array<PreviewFinding>;
    approver_routing?: Array<{
        [key: string]: unknown;
    }>;
    commit_unlocks?: Array<{
        [key: string]: unknown;
    }>;
    audit_trail?: Array<{
        [key: string]: unknown;
    }>;
    data_boundaries?: Array<{
        [key: string]: unknown;
    }>;
};
export type BusinessBriefingPreviewCreate = {
    role?: Role;
    include_resolved?: boolean;
    limit?: number;
    subject_type?: string | null;
    subject_id?: string | null;
};
export type BusinessBriefingRead = {
    tenant_id: string;
    /**
     * ISO 8601 timestamp
     */
    generated_at: string;
    summary: string;
    api?: {
        [key: string]: string;
    };
    evidence?: Array<{
        [key: string]: unknown;
    }>;
    preview_digest: string;
    side_effects: 'none';
    subject_type?: string | null;
    subject_id?: string | null;
    role: Role;
    risk_level: RiskLevel;
    highlights?: Array<{
        [key: string]: unknown;
    }>;
    recommended_actions?: Array<{
        [key: string]: unknown;
    }>;
    review_points?: Array<{
        [key: string]: unknown;
    }>;
    source_systems?: Array<string>;
};
export type BusinessContextAssistantDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    summary: Array<DemoSummaryCard>;
    role: string;
    subject: string;
    riskLevel: string;
    sourceSystems: Array<string>;
    highlights: Array<{
        item: string;
        title: string;
        severity: string;
        reason: string;
        ageHours: number;
    }>;
    recommendedActions: Array<{
        item: string;
        action: string;
        roleMayAct: boolean;
        handTo: string;
    }>;
    reviewPoints: Array<{
        point: string;
        count: number;
    }>;
    dataBoundaries: Array<DemoDataBoundary>;
};
export type BusinessDetectionPreviewCreate = {
    rule_set?: 'payment_reconciliation';
    limit?: number;
    subject_type?: string | null;
    subject_id?: string | null;
};
export type BusinessDetectionPreviewRead = {
    tenant_id: string;
    /**
     * ISO 8601 timestamp
     */
    generated_at: string;
    summary: string;
    api?: {
        [key: string]: string;
    };
    evidence?: Array<{
        [key: string]: unknown;
    }>;
    preview_digest: string;
    side_effects: 'none';
    subject_type?: string | null;
    subject_id?: string | null;
    rule_set: 'payment_reconciliation';
    rules?: Array<{
        [key: string]: unknown;
    }>;
    observations?: Array<{
        [key: string]: unknown;
    }>;
    detected_exceptions?: Array<{
        [key: string]: unknown;
    }>;
    suggested_repair_actions?: Array<{
        [key: string]: unknown;
    }>;
    source_systems?: Array<string>;
};
export type BusinessEscalationPreviewCreate = {
    policy?: 'exception_triage';
    include_resolved?: boolean;
    limit?: number;
    subject_type?: string | null;
    subject_id?: string | null;
};
export type BusinessEscalationPreviewRead = {
    tenant_id: string;
    /**
     * ISO 8601 timestamp
     */
    generated_at: string;
    summary: string;
    api?: {
        [key: string]: string;
    };
    evidence?: Array<{
        [key: string]: unknown;
    }>;
    preview_digest: string;
    side_effects: 'none';
    subject_type?: string | null;
    subject_id?: string | null;
    policy: 'exception_triage';
    risk_level: RiskLevel;
    queues?: Array<{
        [key: string]: unknown;
    }>;
    escalation_items?: Array<{
        [key: string]: unknown;
    }>;
    review_points?: Array<{
        [key: string]: unknown;
    }>;
    suggested_actions?: Array<{
        [key: string]: unknown;
    }>;
};
export type BusinessExceptionCreate = {
    exception_type: string;
    subject_type: string;
    subject_id: string;
    title: string;
    summary: string;
    severity?: 'info' | 'warning' | 'critical';
    /**
     * A provider record as the provider sends it
     */
    evidence?: {
        [key: string]: unknown;
    };
    /**
     * A provider record as the provider sends it
     */
    impact?: {
        [key: string]: unknown;
    };
    observation_ids?: Array<string>;
};
export type BusinessExceptionList = {
    items: Array<BusinessExceptionRead>;
    next_cursor: string | null;
};
export type BusinessExceptionRead = {
    id: string;
    tenant_id: string;
    exception_type: string;
    severity: 'info' | 'warning' | 'critical';
    status: 'open' | 'acknowledged' | 'resolved';
    subject_type: string;
    subject_id: string;
    title: string;
    summary: string;
    impact_json: string;
    evidence_json: string;
    observation_ids?: Array<string>;
    /**
     * ISO 8601 timestamp
     */
    detected_at: string;
    created_at?: string | null;
    updated_at?: string | null;
    resolved_at?: string | null;
    escalation: ExceptionEscalationRead | null;
};
export type BusinessExceptionStatusChange = {
    status: 'acknowledged' | 'resolved';
    note?: string | null;
};
export type BusinessIntakePipelineDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    summary: Array<DemoSummaryCard>;
    role: string;
    sourceSystems: Array<string>;
    intakePreviews: Array<{
        source: string;
        event: string;
        accepted: boolean;
        normalizedAs: string | null;
        problems: Array<string>;
    }>;
    workbench: {
        events: number;
        accepted: number;
        refused: number;
        documentsCompared: number;
    };
    detections: {
        ruleSet: string;
        findings: Array<{
            rule: string;
            severity: string;
            documents: Array<string>;
            message: string;
            repair: string;
        }>;
    };
    actionPlan: Array<{
        step: number;
        action: string;
        lane: string;
        description: string;
    }>;
    notificationDrafts: Array<{
        channel: string;
        audienceRole: string;
        subject: string;
        status: string;
        wouldQueue: boolean;
    }>;
    dataBoundaries: Array<DemoDataBoundary>;
};
export type BusinessIntakePipelinePreviewCreate = {
    events: Array<BusinessProviderIntakePreviewCreate>;
    include_notification_drafts?: boolean;
    role?: Role;
};
export type BusinessIntakePipelinePreviewRead = {
    tenant_id: string;
    /**
     * ISO 8601 timestamp
     */
    generated_at: string;
    summary: string;
    api?: {
        [key: string]: string;
    };
    evidence?: Array<{
        [key: string]: unknown;
    }>;
    preview_digest: string;
    side_effects: 'none';
    role: Role;
    status: 'previewed';
    intake_previews?: Array<{
        [key: string]: unknown;
    }>;
    data_boundaries?: Array<{
        [key: string]: unknown;
    }>;
    /**
     * A provider record as the provider sends it
     */
    action_plan?: {
        [key: string]: unknown;
    };
    /**
     * A provider record as the provider sends it
     */
    detections?: {
        [key: string]: unknown;
    };
    /**
     * A provider record as the provider sends it
     */
    notification_preview?: {
        [key: string]: unknown;
    };
    /**
     * A provider record as the provider sends it
     */
    workbench_context?: {
        [key: string]: unknown;
    };
    source_systems?: Array<string>;
};
/**
 * Which business events reach which channel for the demo tenant, with drafts and gates.
 */
export type BusinessNotificationChannelMatrixDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    title: string;
    tenant: DemoTenant;
    summary: Array<DemoSummaryCard>;
    channels: Array<{
        channel: NotificationChannel;
        label: string;
        enabled: boolean;
        gateState: 'open' | 'closed' | 'not required';
        connection: string;
        queue: string;
        audience: string;
        usedFor: Array<string>;
    }>;
    routingRules: Array<{
        rule: string;
        trigger: string;
        condition: string;
        channels: Array<NotificationChannel>;
        audience: string;
        approval: string;
    }>;
    approvalGates: Array<{
        gate: string;
        appliesTo: string;
        approverRole: string;
        reason: string;
        state: string;
    }>;
    deliveryDrafts: Array<{
        draftId: string;
        rule: string;
        channel: NotificationChannel;
        audience: string;
        template: string;
        policyCheck: string;
        outcome: string;
        idempotencyKey: string;
    }>;
    dataBoundaries: Array<DemoDataBoundary>;
};
export type BusinessProviderIntakePreviewCreate = {
    source: 'telegram' | 'email' | 'sms' | 'webhook' | 'xero' | 'quickbooks_online' | 'ledgerly' | 'tallybook' | 'bank_feed' | 'crm';
    event_type: string;
    external_id: string;
    occurred_at?: string | null;
    /**
     * A provider record as the provider sends it
     */
    payload: {
        [key: string]: unknown;
    };
};
/**
 * Documents, a workflow rule tried on their events by the real matcher, and the task it creates (docs/api.md section 9.1).
 */
export type BusinessRecordsDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    summary: Array<DemoSummaryCard>;
    subject: string;
    documents: Array<{
        id: string;
        documentType: string;
        number: string;
        counterparty: string;
        amount: string;
        issuedOn: string;
        dueOn: string | null;
        appliesTo: string | null;
        status: string;
    }>;
    invoiceLines: Array<{
        description: string;
        quantity: string;
        unitAmount: string;
    }>;
    workflowRule: {
        id: string;
        name: string;
        trigger: string;
        enabled: boolean;
        action: string;
    };
    ruleTest: Array<{
        field: string;
        op: string;
        value: string | number | boolean | null;
        actual: string | number | boolean | null;
        passed: boolean;
    }>;
    ruleTests: Array<{
        event: string;
        matched: boolean;
        failedConditions: string;
        plannedActions: number;
        sideEffects: 'none';
    }>;
    tasks: Array<{
        title: string;
        status: string;
        assigneeRole: string | null;
        dueAt: string | null;
        subjectType: string | null;
        subjectId: string | null;
        sourceRuleId: string;
    }>;
    auditTrail: Array<{
        eventType: string;
        note: string;
    }>;
    dataBoundaries: Array<DemoDataBoundary>;
};
/**
 * One business scenario replayed end to end.
 */
export type BusinessScenarioReplayDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    title: string;
    summary: Array<DemoSummaryCard>;
    scenario: {
        id: string;
        title: string;
        window: string;
        question: string;
    };
    timeline: Array<{
        step: number;
        at: string;
        stage: string;
        actor: string;
        api: string;
        outcome: string;
    }>;
    exceptions: Array<{
        exceptionType: string;
        severity: 'info' | 'warning' | 'critical';
        subject: string;
        title: string;
        status: string;
    }>;
    notifications: Array<{
        channel: NotificationChannel;
        audience: string;
        outcome: string;
    }>;
    auditTrail: Array<{
        eventType: string;
        entity: string;
        actorRole: string;
    }>;
    observed: Array<{
        metric: string;
        value: number;
        unit: string;
    }>;
    dataBoundaries: Array<DemoDataBoundary>;
};
export type ConnectionHealthRead = {
    state: 'healthy' | 'degraded' | 'failing' | 'unknown';
    reason: string | null;
    next_action: string | null;
    last_success_at: string | null;
    last_failure_at: string | null;
    open_issues: number;
};
export type ConnectionSchedule = {
    diagnostics_every_hours?: number;
    reconciliation_every_hours?: number;
};
/**
 * Certifying a connector against its adapter contract.
 */
export type ConnectorCertificationDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    title: string;
    summary: Array<DemoSummaryCard>;
    connector: {
        key: string;
        name: string;
        category: string;
        direction: string;
        contractVersion: string;
    };
    walkthrough: Array<{
        step: number;
        title: string;
        actor: string;
        api: string;
        outcome: string;
    }>;
    contractChecks: Array<{
        operation: string;
        direction: string;
        requiredMappingKeys: Array<string>;
        result: 'passed' | 'warning';
    }>;
    failureModes: Array<{
        mode: string;
        providerSignal: string;
        expectedHandling: string;
        verifiedBy: string;
    }>;
    scopes: Array<{
        scope: string;
        requested: boolean;
        reason: string;
    }>;
    verdict: {
        level: string;
        decidedBy: string;
        validUntil: string;
        conditions: Array<string>;
    };
    dataBoundaries: Array<DemoDataBoundary>;
};
/**
 * Replaying recorded, sanitized connector fixtures through the adapter mapping.
 */
export type ConnectorFixtureReplayDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    title: string;
    summary: Array<DemoSummaryCard>;
    run: {
        runId: string;
        adapter: string;
        fixtureSet: string;
        mode: string;
        startedAt: string;
    };
    walkthrough: Array<{
        step: number;
        title: string;
        actor: string;
        api: string;
        outcome: string;
    }>;
    fixtures: Array<{
        fixtureId: string;
        event: string;
        normalizedFields: Array<string>;
        expectedRecord: string;
        result: 'matched' | 'drift';
        durationMs: number;
    }>;
    mappingAssertions: Array<{
        field: string;
        sourceField: string;
        target: string;
        result: 'passed' | 'failed';
    }>;
    drift: Array<{
        fixtureId: string;
        field: string;
        expected: string;
        actual: string;
        decision: string;
    }>;
    dataBoundaries: Array<DemoDataBoundary>;
};
/**
 * What the public surface shows, and what stays private on the server.
 */
export type DemoDataBoundary = {
    boundary: string;
    publicSurface: string;
    privateServerSide: string;
};
/**
 * One headline figure of a demo record.
 */
export type DemoSummaryCard = {
    label: string;
    value: string;
    detail: string;
};
/**
 * The one fictional tenant all demo records describe.
 */
export type DemoTenant = {
    id: string;
    name: string;
    industry: string;
    region: string;
    sites: Array<string>;
    fictional: true;
};
export type DiagnosticCheckRead = {
    id: string;
    status: 'pass' | 'warn' | 'fail';
    issue_code: 'config_invalid' | 'secret_missing' | 'scope_not_supported' | 'mapping_incomplete' | 'provider_unreachable' | 'reauthorization_required' | null;
    message: string;
    next_action: string | null;
};
export type DigestRequest = {
    key: string;
    window_minutes: number;
};
export type DocumentCreate = {
    document_type: 'invoice' | 'payment' | 'credit_note';
    number: string;
    counterparty: string;
    currency: string;
    /**
     * Decimal string with at most 2 decimals
     */
    amount: string;
    issued_on: string;
    due_on?: string | null;
    external_refs?: {
        [key: string]: string;
    };
    lines?: Array<DocumentLine>;
    applies_to?: string | null;
};
export type DocumentLine = {
    description: string;
    /**
     * Decimal string with at most 3 decimals
     */
    quantity: string;
    /**
     * Decimal string with at most 2 decimals
     */
    unit_amount: string;
};
export type DocumentLineRead = {
    description: string;
    quantity: string;
    /**
     * Decimal string with at most 2 decimals
     */
    unit_amount: string;
    /**
     * Decimal string with at most 2 decimals
     */
    total: string;
};
export type DocumentList = {
    items: Array<DocumentRead>;
    next_cursor: string | null;
};
export type DocumentRead = {
    id: string;
    tenant_id: string;
    document_type: 'invoice' | 'payment' | 'credit_note';
    number: string;
    counterparty: string;
    currency: string;
    /**
     * Decimal string with at most 2 decimals
     */
    amount: string;
    issued_on: string;
    due_on: string | null;
    external_refs: {
        [key: string]: string;
    };
    lines: Array<DocumentLineRead>;
    applies_to: string | null;
    status: 'draft' | 'open' | 'paid' | 'void';
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
};
export type DocumentStatusChange = {
    status: 'draft' | 'open' | 'paid' | 'void';
    note?: string | null;
};
export type EscalationLevel = {
    after_minutes: number;
    notify: Array<EscalationNotifyTarget>;
};
export type EscalationMatch = {
    severities?: Array<'info' | 'warning' | 'critical'>;
    exception_types?: Array<string>;
};
export type EscalationNotifyTarget = {
    channel: NotificationChannel;
    recipient?: string;
    recipient_user_id?: string;
    role?: Role;
};
export type EscalationPolicyCreate = {
    name: string;
    priority?: number;
    match?: EscalationMatch;
    levels: Array<EscalationLevel>;
    repeat?: number;
    ack_timeout_minutes?: number | null;
    enabled?: boolean;
};
export type EscalationPolicyList = {
    items: Array<EscalationPolicyRead>;
    next_cursor: string | null;
};
export type EscalationPolicyRead = {
    id: string;
    tenant_id: string;
    name: string;
    priority: number;
    match: {
        severities?: Array<'info' | 'warning' | 'critical'>;
        exception_types?: Array<string>;
    };
    levels: Array<{
        after_minutes: number;
        notify: Array<{
            channel: NotificationChannel;
            recipient?: string;
            recipient_user_id?: string;
            role?: Role;
        }>;
    }>;
    repeat: number;
    ack_timeout_minutes: number | null;
    enabled: boolean;
    version: number;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
};
export type EscalationPolicyUpdate = {
    version: number;
    name?: string;
    priority?: number;
    match?: EscalationMatch;
    levels?: Array<EscalationLevel>;
    repeat?: number;
    ack_timeout_minutes?: number | null;
    enabled?: boolean;
};
export type EventTypeList = {
    items: Array<EventTypeRead>;
};
export type EventTypeRead = {
    type: string;
    description: string;
    /**
     * A provider record as the provider sends it
     */
    schema: {
        [key: string]: unknown;
    };
};
export type ExceptionEscalationRead = {
    policy_id: string;
    level: number;
    /**
     * ISO 8601 timestamp
     */
    next_at: string;
};
export type ExportDocumentById = {
    document_id: string;
};
export type ExportDocumentInline = {
    number: string;
    /**
     * Decimal string with at most 2 decimals
     */
    amount: string;
    currency: string;
    [key: string]: unknown;
};
export type InboxItemList = {
    items: Array<InboxItemRead>;
    next_cursor: string | null;
};
export type InboxItemRead = {
    notification_id: string;
    subject: string | null;
    body: string;
    category: NotificationCategory;
    priority: 'normal' | 'critical';
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    read_at: string | null;
};
export type InboxReadAll = {
    category?: NotificationCategory;
};
export type InboxReadAllResult = {
    updated: number;
};
export type InboxSummaryRead = {
    unread: number;
    unread_by_category: {
        [key in NotificationCategory]?: number;
    };
};
export type IntegrationAuthorizationRead = {
    /**
     * The provider's consent page, with this request's state (single-use)
     */
    authorize_url: string;
    /**
     * ISO 8601 timestamp
     */
    expires_at: string;
};
export type IntegrationConnectionCreate = {
    adapter_key: string;
    name: string;
    /**
     * A subset of the adapter's supported_connection_scopes
     */
    scopes?: Array<string>;
    /**
     * A provider record as the provider sends it
     */
    config?: {
        [key: string]: unknown;
    };
    /**
     * Write-only: the adapter's auth_profile.secret_fields; kept in private storage, never returned
     */
    secret?: {
        [key: string]: unknown;
    };
    /**
     * Service field -> provider field path
     */
    mapping?: {
        [key: string]: string;
    };
    schedule?: ConnectionSchedule | null;
};
export type IntegrationConnectionList = {
    items: Array<IntegrationConnectionRead>;
    next_cursor: string | null;
};
export type IntegrationConnectionRead = {
    id: string;
    tenant_id: string;
    adapter_key: string;
    name: string;
    status: 'active' | 'disabled';
    scopes: Array<string>;
    /**
     * A provider record as the provider sends it
     */
    config: {
        [key: string]: unknown;
    };
    mapping: {
        [key: string]: string;
    };
    secret_configured: boolean;
    schedule: ConnectionSchedule | null;
    health: ConnectionHealthRead;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
};
export type IntegrationConnectionUpdate = {
    name?: string;
    status?: 'active' | 'disabled';
    /**
     * A subset of the adapter's supported_connection_scopes
     */
    scopes?: Array<string>;
    /**
     * A provider record as the provider sends it
     */
    config?: {
        [key: string]: unknown;
    };
    secret?: {
        [key: string]: unknown;
    } | null;
    /**
     * Service field -> provider field path
     */
    mapping?: {
        [key: string]: string;
    };
    schedule?: ConnectionSchedule | null;
};
export type IntegrationDiagnosticsRead = {
    connection_id: string;
    /**
     * ISO 8601 timestamp
     */
    ran_at: string;
    checks: Array<DiagnosticCheckRead>;
    health: ConnectionHealthRead;
};
export type IntegrationMappingPreviewCreate = {
    /**
     * A provider record as the provider sends it
     */
    sample: {
        [key: string]: unknown;
    };
    /**
     * Service field -> provider field path
     */
    mapping?: {
        [key: string]: string;
    };
};
export type IntegrationMappingPreviewRead = {
    /**
     * A provider record as the provider sends it
     */
    mapped: {
        [key: string]: unknown;
    };
    missing_required_keys: Array<string>;
    unmapped_fields: Array<string>;
    warnings: Array<string>;
};
/**
 * Diagnosing and repairing a failing integration.
 */
export type IntegrationRepairDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    title: string;
    summary: Array<DemoSummaryCard>;
    incident: {
        connector: string;
        detectedAt: string;
        symptom: string;
        impact: string;
        exceptionType: string;
    };
    walkthrough: Array<{
        step: number;
        title: string;
        actor: string;
        api: string;
        outcome: string;
    }>;
    diagnostics: Array<{
        check: string;
        finding: string;
        severity: 'info' | 'warning' | 'critical';
    }>;
    repairPlan: Array<{
        step: number;
        action: string;
        mode: 'automatic' | 'needs approval';
        risk: string;
        rollback: string;
    }>;
    reconciliation: Array<{
        dataset: string;
        before: number;
        after: number;
        state: string;
    }>;
    dataBoundaries: Array<DemoDataBoundary>;
};
export type IntegrationRepairPreviewCreate = {
    connection_id: string;
    issue_code?: 'config_invalid' | 'secret_missing' | 'scope_not_supported' | 'mapping_incomplete' | 'provider_unreachable' | 'reauthorization_required';
};
export type IntegrationRepairPreviewRead = {
    status: 'previewed';
    tenant_id: string;
    connection_id: string;
    /**
     * ISO 8601 timestamp
     */
    generated_at: string;
    summary: string;
    problems: Array<{
        issue_code: 'config_invalid' | 'secret_missing' | 'scope_not_supported' | 'mapping_incomplete' | 'provider_unreachable' | 'reauthorization_required';
        check: string;
        message: string;
        open_issue: boolean;
    }>;
    proposed_changes: Array<{
        path: string;
        before: unknown;
        after: unknown;
    }>;
    steps: Array<string>;
    risk_level: 'none' | 'low' | 'medium' | 'high';
    /**
     * A provider record as the provider sends it
     */
    evidence: {
        [key: string]: unknown;
    };
    api: Array<{
        method: string;
        path: string;
        /**
         * A provider record as the provider sends it
         */
        body?: {
            [key: string]: unknown;
        };
    }>;
};
export type MemberCreate = {
    email: string;
    display_name: string;
    role: Role;
    password?: string;
};
export type MemberInvitationList = {
    items: Array<MemberInvitationRead>;
    next_cursor: string | null;
};
export type MemberInvitationRead = {
    id: string;
    tenant_id: string;
    tenant_name: string;
    email: string;
    role: Role;
    status: 'pending' | 'accepted' | 'declined' | 'revoked';
    invited_by: string;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    expires_at: string;
};
export type MemberList = {
    items: Array<MemberRead>;
    next_cursor: string | null;
};
export type MemberRead = {
    tenant_id: string;
    user_id: string;
    email: string;
    display_name: string;
    role: Role;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    updated_at?: string | null;
};
export type MembershipRead = {
    tenant_id: string;
    tenant_name: string;
    role: Role;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
};
export type MemberUpdate = {
    role: Role;
};
export type MutedEntry = {
    channel?: NotificationChannel;
    category?: NotificationCategory;
};
export type NotificationAttemptRead = {
    attempt: number;
    /**
     * ISO 8601 timestamp
     */
    at: string;
    outcome: 'delivered' | 'transient_failure' | 'permanent_failure' | 'gated' | 'suppressed' | 'scheduled' | 'released' | 'digesting' | 'digested';
    reason: string | null;
    latency_ms: number | null;
};
export type NotificationCategory = 'exceptions' | 'tasks' | 'documents' | 'integrations' | 'accounting' | 'security' | 'general';
export type NotificationChannel = 'in_app' | 'telegram' | 'email' | 'sms' | 'webhook';
export type NotificationCreate = {
    channel: NotificationChannel;
    recipient?: string;
    recipient_user_id?: string;
    category?: NotificationCategory;
    priority?: 'normal' | 'critical';
    subject?: string | null;
    body: string;
    /**
     * A provider record as the provider sends it
     */
    metadata?: {
        [key: string]: unknown;
    };
    dedupe_key?: string;
    dedupe_window_minutes?: number;
    digest?: DigestRequest;
};
/**
 * The notification delivery contract: channel adapter profiles, the outbox event, worker queues, provider gates, retry and dead-letter routing, the operator review path, and the metric, log and alarm names.
 */
export type NotificationDeliveryContractDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    title: string;
    summary: Array<DemoSummaryCard>;
    deliveryPath: Array<{
        step: number;
        stage: string;
        actor: string;
        what: string;
        resultStatus: string;
        metric: string;
        logEvent: string;
    }>;
    outboxEvent: {
        kind: string;
        writtenAfter: string;
        transaction: string;
        idempotencyKey: string;
        envelope: Array<string>;
        relay: string;
        recovery: string;
        consumer: string;
    };
    channels: Array<{
        channel: NotificationChannel;
        label: string;
        direction: 'internal' | 'external';
        adapter: string;
        queue: string;
        deadLetterQueue: string;
        providerGate: string;
        recipientFormat: string;
        maxBodyChars: number;
        subject: 'required' | 'optional' | 'not used';
        transport: string;
    }>;
    queues: Array<{
        name: string;
        deadLetterQueue: string;
        carries: Array<string>;
        consumer: string;
        maxAttempts: number;
        alarms: Array<string>;
    }>;
    providerGates: Array<{
        channel: NotificationChannel;
        gate: string;
        opensWhen: Array<string>;
        whenClosed: string;
        publicView: string;
    }>;
    retryRouting: Array<{
        outcome: string;
        signal: string;
        status: string;
        route: string;
        metric: string;
        logEvent: string;
    }>;
    deadLetters: Array<{
        queue: string;
        deadLetterQueue: string;
        entersWhen: string;
        alarm: string;
        runbook: string;
        redrive: string;
    }>;
    reviewPath: Array<{
        step: number;
        action: string;
        api: string;
        roles: Array<string>;
        result: string;
    }>;
    metrics: Array<{
        name: string;
        unit: string;
        stage: string;
        meaning: string;
    }>;
    logEvents: Array<{
        event: string;
        stage: string;
        meaning: string;
    }>;
    alarms: Array<{
        name: string;
        signal: string;
        runbook: string;
    }>;
    dataBoundaries: Array<DemoDataBoundary>;
};
export type NotificationList = {
    items: Array<NotificationRead>;
    next_cursor: string | null;
};
export type NotificationRead = {
    id: string;
    tenant_id: string;
    channel: NotificationChannel;
    recipient: string;
    recipient_user_id: string | null;
    category: NotificationCategory;
    priority: 'normal' | 'critical';
    subject: string | null;
    body: string;
    metadata_json: string;
    status: 'blocked' | 'queued' | 'delivering' | 'delivered' | 'retrying' | 'gated' | 'dead_lettered' | 'discarded' | 'suppressed' | 'scheduled' | 'digesting' | 'digested';
    policy_reasons: Array<string>;
    idempotency_key: string;
    attempts: Array<NotificationAttemptRead>;
    review_item_id: string | null;
    created_by: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
    queued_at: string | null;
    delivered_at: string | null;
    deliver_after?: string | null;
    dedupe_key?: string | null;
    duplicate_of?: string | null;
    digest_key?: string | null;
    digest_id?: string | null;
};
export type OpsMetricsRead = {
    /**
     * ISO 8601 timestamp
     */
    generated_at: string;
    queues: Array<{
        name: string;
        visible: number;
        in_flight: number;
        dlq_depth: number;
    }>;
    outbox: {
        pending: number;
        oldest_age_seconds: number | null;
    };
    review_items_open: {
        [key: string]: number;
    };
};
export type PreferenceContacts = {
    email?: string;
    sms?: string;
    telegram?: string;
};
export type PreferencesPut = {
    contacts?: PreferenceContacts;
    muted?: Array<MutedEntry>;
    quiet_hours?: QuietHours | null;
};
export type PreferencesRead = {
    contacts: PreferenceContacts;
    muted: Array<MutedEntry>;
    quiet_hours: QuietHours | null;
    updated_at: string | null;
};
export type PreviewFinding = {
    step: number;
    check: string;
    status: 'pass' | 'warn' | 'fail';
    finding_type: string;
    message: string;
};
/**
 * RFC 9457 problem details
 */
export type Problem = {
    type: string;
    title: string;
    status: number;
    code: string;
    detail?: string;
    request_id: string;
    errors?: Array<{
        path: string;
        code: string;
        message: string;
    }>;
};
/**
 * Onboarding a delivery provider until its gate opens.
 */
export type ProviderOnboardingDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    title: string;
    summary: Array<DemoSummaryCard>;
    provider: {
        key: string;
        name: string;
        channel: NotificationChannel;
        category: string;
    };
    walkthrough: Array<{
        step: number;
        title: string;
        actor: string;
        api: string;
        outcome: string;
    }>;
    checklist: Array<{
        item: string;
        owner: string;
        state: 'done' | 'pending';
        evidence: string;
    }>;
    diagnostics: Array<{
        probe: string;
        result: 'passed' | 'warning';
        latencyMs: number;
        note: string;
    }>;
    gateTransitions: Array<{
        from: string;
        to: string;
        trigger: string;
    }>;
    dataBoundaries: Array<DemoDataBoundary>;
};
/**
 * The public demo: the fictional tenant, its business previews and the notification delivery contract.
 */
export type PublicDemoRead = {
    status: 'previewed';
    /**
     * A shell command that fetches this record from the local runtime.
     */
    command: string;
    /**
     * What to call: a name mapped to "METHOD /path".
     */
    api: {
        [key: string]: string;
    };
    /**
     * Documents that explain the record: each a map with `title` and `path`.
     */
    docs: Array<{
        [key: string]: string;
    }>;
    title: string;
    tagline: string;
    tenant: DemoTenant;
    summary: Array<DemoSummaryCard>;
    sections: Array<{
        id: string;
        title: string;
        path: string;
        description: string;
    }>;
    contextAssistant: BusinessContextAssistantDemoRead;
    intakePipeline: BusinessIntakePipelineDemoRead;
    actionExecution: BusinessActionExecutionDemoRead;
    approvalGateway: BusinessApprovalGatewayDemoRead;
    businessRecords: BusinessRecordsDemoRead;
    notificationDelivery: NotificationDeliveryContractDemoRead;
    dataBoundaries: Array<DemoDataBoundary>;
};
export type QuietHours = {
    start: string;
    end: string;
    timezone?: string;
};
export type ReconciliationRunCreate = {
    connection_id: string;
    rule_set: 'payment_reconciliation';
};
export type ReconciliationRunList = {
    items: Array<ReconciliationRunRead>;
    next_cursor: string | null;
};
export type ReconciliationRunRead = {
    id: string;
    tenant_id: string;
    connection_id: string;
    adapter_key: string;
    rule_set: string;
    status: 'queued' | 'completed' | 'failed';
    matched: number;
    mismatched: number;
    missing_in_provider: number;
    missing_locally: number;
    exception_ids: Array<string>;
    error: string | null;
    requested_by: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
    completed_at: string | null;
};
export type ReviewDecision = {
    action: 'retry' | 'discard';
    note?: string | null;
};
export type ReviewItemList = {
    items: Array<ReviewItemRead>;
    next_cursor: string | null;
};
export type ReviewItemRead = {
    id: string;
    tenant_id: string;
    notification_id: string | null;
    channel: NotificationChannel | null;
    reason: 'gated' | 'permanent_failure' | 'dead_lettered' | 'policy_rejected' | 'invalid_action' | 'action_failed' | 'check_failed' | 'endpoint_disabled' | 'invalid_transition' | 'loop_limit';
    detail: string;
    status: 'open' | 'retried' | 'discarded' | 'resolved';
    decision: 'retry' | 'discard' | null;
    note: string | null;
    decided_by: string | null;
    decided_at: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
    kind: 'notification' | 'workflow_action' | 'accounting_export' | 'integration_issue' | 'webhook_endpoint';
    subject_id: string;
};
export type RiskLevel = 'normal' | 'attention' | 'critical';
export type Role = 'operator' | 'accountant' | 'manager' | 'owner' | 'support';
export type SessionCreate = {
    email: string;
    password: string;
};
export type TaskCreate = {
    title: string;
    description?: string | null;
    assignee_role?: Role | null;
    assignee_id?: string | null;
    due_at?: string | null;
    subject_type?: string | null;
    subject_id?: string | null;
};
export type TaskList = {
    items: Array<TaskRead>;
    next_cursor: string | null;
};
export type TaskRead = {
    id: string;
    tenant_id: string;
    title: string;
    description: string | null;
    assignee_role: Role | null;
    assignee_id: string | null;
    due_at: string | null;
    subject_type: string | null;
    subject_id: string | null;
    status: 'open' | 'in_progress' | 'done' | 'cancelled';
    source_rule_id: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
    completed_at: string | null;
};
export type TaskStatusChange = {
    status: 'open' | 'in_progress' | 'done' | 'cancelled';
    note?: string | null;
};
export type TaskUpdate = {
    title?: string;
    description?: string | null;
    assignee_role?: Role | null;
    assignee_id?: string | null;
    due_at?: string | null;
};
export type TenantCreate = {
    id: string;
    name: string;
};
export type TenantList = {
    items: Array<TenantRead>;
    next_cursor: string | null;
};
export type TenantRead = {
    id: string;
    name: string;
    timezone: string;
    status: 'active';
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
};
export type TenantUpdate = {
    name?: string;
    /**
     * An IANA time zone name, like Europe/Berlin or UTC.
     */
    timezone?: string;
};
export type TimerList = {
    items: Array<TimerRead>;
    next_cursor: string | null;
};
export type TimerRead = {
    id: string;
    kind: 'rule_schedule' | 'escalation' | 'ack_timeout' | 'task_due' | 'document_due' | 'hub_schedule' | 'oauth_refresh' | 'export_window' | 'notification_release' | 'notification_digest' | 'webhook_retry' | 'rule_delay';
    subject_type: string;
    subject_id: string;
    /**
     * ISO 8601 timestamp
     */
    due_at: string;
    rule_id?: string;
    policy_id?: string;
    level?: number;
};
export type UserRead = {
    id: string;
    email: string;
    display_name: string;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
};
export type WebhookEndpointCreate = {
    url: string;
    description?: string | null;
    event_types: Array<WebhookEventType>;
    enabled?: boolean;
};
export type WebhookEndpointCreated = {
    id: string;
    tenant_id: string;
    url: string;
    description: string | null;
    event_types: Array<WebhookEventType>;
    enabled: boolean;
    status: 'active' | 'disabled';
    disabled_reason: 'manual' | 'gone' | 'failing' | null;
    secret_rotated_at: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
    secret: string;
};
export type WebhookEndpointList = {
    items: Array<WebhookEndpointRead>;
    next_cursor: string | null;
};
export type WebhookEndpointRead = {
    id: string;
    tenant_id: string;
    url: string;
    description: string | null;
    event_types: Array<WebhookEventType>;
    enabled: boolean;
    status: 'active' | 'disabled';
    disabled_reason: 'manual' | 'gone' | 'failing' | null;
    secret_rotated_at: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
};
export type WebhookEndpointUpdate = {
    url?: string;
    description?: string | null;
    event_types?: Array<WebhookEventType>;
    enabled?: boolean;
};
export type WebhookEventType = '*' | 'exception.created' | 'exception.status_changed' | 'exception.escalated' | 'exception.ack_timed_out' | 'document.created' | 'document.status_changed' | 'document.overdue' | 'task.status_changed' | 'task.overdue' | 'accounting_export.failed' | 'integration.issue_opened' | 'workflow_run.failed' | 'webhook.test';
export type WebhookMessageList = {
    items: Array<WebhookMessageRead>;
    next_cursor: string | null;
};
export type WebhookMessageRead = {
    id: string;
    endpoint_id: string;
    event_type: string;
    status: 'pending' | 'delivered' | 'retrying' | 'failed';
    attempts: Array<{
        /**
         * ISO 8601 timestamp
         */
        at: string;
        status_code: number | null;
        duration_ms: number;
        error_code: string | null;
    }>;
    next_attempt_at: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
};
export type WebhookQueuedRead = {
    queued: number;
};
export type WebhookRecover = {
    since: string;
};
export type WebhookSecretRead = {
    secret: string;
};
export type WebhookTestRead = {
    message_id: string;
};
export type WorkflowCondition = {
    field: string;
    op: 'eq' | 'neq';
    value: string | number | boolean | null;
} | {
    field: string;
    op: 'in';
    value: Array<string | number | boolean | null>;
} | {
    field: string;
    op: 'gt' | 'gte' | 'lt' | 'lte';
    value: string | number;
} | {
    field: string;
    op: 'contains';
    value: string | number | boolean;
} | {
    field: string;
    op: 'exists';
    value: boolean;
};
export type WorkflowConditionInput = {
    field: string;
    op: 'eq' | 'neq';
    value: string | number | boolean | null;
} | {
    field: string;
    op: 'in';
    value: Array<string | number | boolean | null>;
} | {
    field: string;
    op: 'gt' | 'gte' | 'lt' | 'lte';
    value: string | number;
} | {
    field: string;
    op: 'contains';
    value: string | number | boolean;
} | {
    field: string;
    op: 'exists';
    value?: boolean;
};
export type WorkflowCreateTaskAction = {
    type: 'create_task';
    title: string;
    assignee_role?: Role | null;
    due_in_hours?: number | null;
};
export type WorkflowDelayAction = {
    type: 'delay';
    minutes: number;
};
export type WorkflowEventTrigger = {
    event_type: 'exception.created' | 'exception.status_changed' | 'exception.escalated' | 'exception.ack_timed_out' | 'document.created' | 'document.status_changed' | 'document.overdue' | 'task.status_changed' | 'task.overdue' | 'accounting_export.failed' | 'integration.issue_opened' | 'workflow_run.failed';
};
export type WorkflowNotifyAction = {
    type: 'notify';
    channel: NotificationChannel;
    recipient?: string;
    recipient_user_id?: string;
    category: NotificationCategory;
    priority: 'normal' | 'critical';
    subject?: string | null;
    body: string;
};
export type WorkflowNotifyActionInput = {
    type: 'notify';
    channel: NotificationChannel;
    recipient?: string;
    recipient_user_id?: string;
    category?: NotificationCategory;
    priority?: 'normal' | 'critical';
    subject?: string | null;
    body: string;
};
export type WorkflowPlannedDelay = {
    type: 'delay';
    minutes: number;
    /**
     * ISO 8601 timestamp
     */
    until: string;
};
export type WorkflowPlannedNotification = {
    type: 'notify';
    channel: NotificationChannel;
    recipient: string | null;
    recipient_user_id: string | null;
    category: NotificationCategory;
    priority: 'normal' | 'critical';
    subject: string | null;
    body: string;
    missing_fields: Array<string>;
};
export type WorkflowPlannedStatus = {
    type: 'set_status';
    status: string;
    subject_type: string | null;
    subject_id: string | null;
    from: string | null;
};
export type WorkflowPlannedTask = {
    type: 'create_task';
    title: string;
    assignee_role: Role | null;
    due_at: string | null;
    subject_type: string | null;
    subject_id: string | null;
    missing_fields: Array<string>;
};
export type WorkflowReplayRead = {
    id: string;
    tenant_id: string;
    rule_id: string;
    /**
     * ISO 8601 timestamp
     */
    since: string;
    until: string | null;
    status: 'queued' | 'running' | 'done';
    queued: number;
    replayed: number;
    skipped: number;
    actor_id: string;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
};
export type WorkflowRuleCreate = {
    name: string;
    trigger: WorkflowEventTrigger | WorkflowScheduleTrigger;
    conditions?: Array<WorkflowConditionInput>;
    actions: Array<WorkflowCreateTaskAction | WorkflowNotifyActionInput | WorkflowDelayAction | WorkflowSetStatusAction>;
    enabled?: boolean;
};
export type WorkflowRuleList = {
    items: Array<WorkflowRuleRead>;
    next_cursor: string | null;
};
export type WorkflowRuleRead = {
    id: string;
    tenant_id: string;
    name: string;
    trigger: {
        event_type: 'exception.created' | 'exception.status_changed' | 'exception.escalated' | 'exception.ack_timed_out' | 'document.created' | 'document.status_changed' | 'document.overdue' | 'task.status_changed' | 'task.overdue' | 'accounting_export.failed' | 'integration.issue_opened' | 'workflow_run.failed';
    } | {
        schedule: {
            cron: string;
            timezone?: string;
        };
    };
    conditions: Array<WorkflowCondition>;
    actions: Array<WorkflowCreateTaskAction | WorkflowNotifyAction | WorkflowDelayAction | WorkflowSetStatusAction>;
    enabled: boolean;
    next_run_at: string | null;
    version: number;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
};
export type WorkflowRuleReplay = {
    since: string;
    until?: string;
    status: 'failed';
};
export type WorkflowRuleTest = {
    event: {
        event_type: 'exception.created' | 'exception.status_changed' | 'exception.escalated' | 'exception.ack_timed_out' | 'document.created' | 'document.status_changed' | 'document.overdue' | 'task.status_changed' | 'task.overdue' | 'accounting_export.failed' | 'integration.issue_opened' | 'workflow_run.failed';
        /**
         * A provider record as the provider sends it
         */
        entity: {
            [key: string]: unknown;
        };
    };
};
export type WorkflowRuleTestRead = {
    matched: boolean;
    event_type_matched: boolean;
    conditions: Array<{
        field: string;
        op: 'eq' | 'neq' | 'in' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'exists';
        value: unknown;
        actual: unknown;
        passed: boolean;
    }>;
    actions: Array<WorkflowPlannedTask | WorkflowPlannedNotification | WorkflowPlannedDelay | WorkflowPlannedStatus>;
    side_effects: 'none';
};
export type WorkflowRuleUpdate = {
    version: number;
    name?: string;
    trigger?: WorkflowEventTrigger | WorkflowScheduleTrigger;
    conditions?: Array<WorkflowConditionInput>;
    actions?: Array<WorkflowCreateTaskAction | WorkflowNotifyActionInput | WorkflowDelayAction | WorkflowSetStatusAction>;
    enabled?: boolean;
};
export type WorkflowRunAction = {
    index: number;
    type: string;
    status: 'pending' | 'waiting' | 'done' | 'failed' | 'skipped';
    result?: {
        task_id?: string;
        notification_id?: string;
        status?: string;
    };
    error?: {
        code: string;
        message: string;
    };
    /**
     * ISO 8601 timestamp
     */
    at?: string;
};
export type WorkflowRunList = {
    items: Array<WorkflowRunRead>;
    next_cursor: string | null;
};
export type WorkflowRunRead = {
    id: string;
    tenant_id: string;
    rule_id: string;
    rule_version: number;
    trigger: {
        event_id: string;
        event_type?: string;
        /**
         * ISO 8601 timestamp
         */
        scheduled_for?: string;
    };
    subject_type: string | null;
    subject_id: string | null;
    status: 'running' | 'waiting' | 'succeeded' | 'failed';
    actions: Array<WorkflowRunAction>;
    replays: Array<{
        /**
         * ISO 8601 timestamp
         */
        at: string;
        actor_id: string;
        rule_version: number;
    }>;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    finished_at: string | null;
};
export type WorkflowScheduleTrigger = {
    schedule: {
        cron: string;
        /**
         * An IANA time zone name, like Europe/Berlin or UTC.
         */
        timezone?: string;
    };
};
export type WorkflowSetStatusAction = {
    type: 'set_status';
    status: 'open' | 'acknowledged' | 'resolved' | 'in_progress' | 'done' | 'cancelled' | 'draft' | 'paid' | 'void';
};
export type AuthSessionsData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/auth/sessions';
};
export type AuthSessionsErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AuthSessionsError = AuthSessionsErrors[keyof AuthSessionsErrors];
export type AuthSessionsResponses = {
    /**
     * List the caller's own sessions
     */
    200: AuthSessionList;
};
export type AuthSessionsResponse = AuthSessionsResponses[keyof AuthSessionsResponses];
export type AuthLoginData = {
    body: SessionCreate;
    path?: never;
    query?: never;
    url: '/auth/sessions';
};
export type AuthLoginErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AuthLoginError = AuthLoginErrors[keyof AuthLoginErrors];
export type AuthLoginResponses = {
    /**
     * Log in: exchange email and password for a bearer token
     */
    201: AccessTokenRead;
};
export type AuthLoginResponse = AuthLoginResponses[keyof AuthLoginResponses];
export type AuthRevokeData = {
    body?: never;
    path: {
        token_id: string;
    };
    query?: never;
    url: '/auth/sessions/{token_id}';
};
export type AuthRevokeErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AuthRevokeError = AuthRevokeErrors[keyof AuthRevokeErrors];
export type AuthRevokeResponses = {
    /**
     * Revoke one of the caller’s sessions
     */
    204: void;
};
export type AuthRevokeResponse = AuthRevokeResponses[keyof AuthRevokeResponses];
export type AuthMeData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/auth/me';
};
export type AuthMeErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AuthMeError = AuthMeErrors[keyof AuthMeErrors];
export type AuthMeResponses = {
    /**
     * The caller, their memberships and platform roles
     */
    200: AuthMeRead;
};
export type AuthMeResponse = AuthMeResponses[keyof AuthMeResponses];
export type AuthInvitationsData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/auth/invitations';
};
export type AuthInvitationsErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AuthInvitationsError = AuthInvitationsErrors[keyof AuthInvitationsErrors];
export type AuthInvitationsResponses = {
    /**
     * The caller's pending invitations (by the caller's email)
     */
    200: AuthInvitationList;
};
export type AuthInvitationsResponse = AuthInvitationsResponses[keyof AuthInvitationsResponses];
export type AuthAcceptInvitationData = {
    body?: never;
    path: {
        invitation_id: string;
    };
    query?: never;
    url: '/auth/invitations/{invitation_id}/accept';
};
export type AuthAcceptInvitationErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AuthAcceptInvitationError = AuthAcceptInvitationErrors[keyof AuthAcceptInvitationErrors];
export type AuthAcceptInvitationResponses = {
    /**
     * Accept an invitation: become a member of its tenant
     */
    201: MembershipRead;
};
export type AuthAcceptInvitationResponse = AuthAcceptInvitationResponses[keyof AuthAcceptInvitationResponses];
export type AuthDeclineInvitationData = {
    body?: never;
    path: {
        invitation_id: string;
    };
    query?: never;
    url: '/auth/invitations/{invitation_id}/decline';
};
export type AuthDeclineInvitationErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AuthDeclineInvitationError = AuthDeclineInvitationErrors[keyof AuthDeclineInvitationErrors];
export type AuthDeclineInvitationResponses = {
    /**
     * Decline an invitation
     */
    204: void;
};
export type AuthDeclineInvitationResponse = AuthDeclineInvitationResponses[keyof AuthDeclineInvitationResponses];
export type TenantsListData = {
    body?: never;
    path?: never;
    query?: {
        limit?: number;
        cursor?: string;
    };
    url: '/tenants';
};
export type TenantsListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type TenantsListError = TenantsListErrors[keyof TenantsListErrors];
export type TenantsListResponses = {
    /**
     * The caller's tenants (every tenant for platform_admin)
     */
    200: TenantList;
};
export type TenantsListResponse = TenantsListResponses[keyof TenantsListResponses];
export type TenantsCreateData = {
    body: TenantCreate;
    headers?: {
        /**
         * The same key and body return the first answer; the same key with another body is 409 `conflict`.
         */
        'Idempotency-Key'?: string;
    };
    path?: never;
    query?: never;
    url: '/tenants';
};
export type TenantsCreateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type TenantsCreateError = TenantsCreateErrors[keyof TenantsCreateErrors];
export type TenantsCreateResponses = {
    /**
     * Create a tenant (platform_admin)
     */
    201: TenantRead;
};
export type TenantsCreateResponse = TenantsCreateResponses[keyof TenantsCreateResponses];
export type TenantsGetData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}';
};
export type TenantsGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type TenantsGetError = TenantsGetErrors[keyof TenantsGetErrors];
export type TenantsGetResponses = {
    /**
     * Get a tenant
     */
    200: TenantRead;
};
export type TenantsGetResponse = TenantsGetResponses[keyof TenantsGetResponses];
export type TenantsUpdateData = {
    body: TenantUpdate;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}';
};
export type TenantsUpdateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type TenantsUpdateError = TenantsUpdateErrors[keyof TenantsUpdateErrors];
export type TenantsUpdateResponses = {
    /**
     * Rename a tenant or set its time zone
     */
    200: TenantRead;
};
export type TenantsUpdateResponse = TenantsUpdateResponses[keyof TenantsUpdateResponses];
export type MembersListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/members';
};
export type MembersListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type MembersListError = MembersListErrors[keyof MembersListErrors];
export type MembersListResponses = {
    /**
     * List a tenant's members
     */
    200: MemberList;
};
export type MembersListResponse = MembersListResponses[keyof MembersListResponses];
export type MembersAddData = {
    body: MemberCreate;
    headers?: {
        /**
         * The same key and body return the first answer; the same key with another body is 409 `conflict`.
         */
        'Idempotency-Key'?: string;
    };
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/members';
};
export type MembersAddErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type MembersAddError = MembersAddErrors[keyof MembersAddErrors];
export type MembersAddResponses = {
    /**
     * platform_admin: the member is added at once
     */
    201: MemberRead;
    /**
     * Invite a member by email (platform_admin: add at once)
     */
    202: MemberInvitationRead;
};
export type MembersAddResponse = MembersAddResponses[keyof MembersAddResponses];
export type MembersRemoveData = {
    body?: never;
    path: {
        tenant_id: string;
        user_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/members/{user_id}';
};
export type MembersRemoveErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type MembersRemoveError = MembersRemoveErrors[keyof MembersRemoveErrors];
export type MembersRemoveResponses = {
    /**
     * Remove a member
     */
    204: void;
};
export type MembersRemoveResponse = MembersRemoveResponses[keyof MembersRemoveResponses];
export type MembersUpdateData = {
    body: MemberUpdate;
    path: {
        tenant_id: string;
        user_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/members/{user_id}';
};
export type MembersUpdateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type MembersUpdateError = MembersUpdateErrors[keyof MembersUpdateErrors];
export type MembersUpdateResponses = {
    /**
     * Change a member's role
     */
    200: MemberRead;
};
export type MembersUpdateResponse = MembersUpdateResponses[keyof MembersUpdateResponses];
export type InvitationsListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/invitations';
};
export type InvitationsListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type InvitationsListError = InvitationsListErrors[keyof InvitationsListErrors];
export type InvitationsListResponses = {
    /**
     * List a tenant's pending invitations
     */
    200: MemberInvitationList;
};
export type InvitationsListResponse = InvitationsListResponses[keyof InvitationsListResponses];
export type InvitationsRevokeData = {
    body?: never;
    path: {
        tenant_id: string;
        invitation_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/invitations/{invitation_id}';
};
export type InvitationsRevokeErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type InvitationsRevokeError = InvitationsRevokeErrors[keyof InvitationsRevokeErrors];
export type InvitationsRevokeResponses = {
    /**
     * Revoke a pending invitation
     */
    204: void;
};
export type InvitationsRevokeResponse = InvitationsRevokeResponses[keyof InvitationsRevokeResponses];
export type ExceptionsListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        status?: 'open' | 'acknowledged' | 'resolved';
        severity?: 'info' | 'warning' | 'critical';
        type?: string;
        subject_type?: string;
        subject_id?: string;
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/exceptions';
};
export type ExceptionsListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type ExceptionsListError = ExceptionsListErrors[keyof ExceptionsListErrors];
export type ExceptionsListResponses = {
    /**
     * List business exceptions, newest first
     */
    200: BusinessExceptionList;
};
export type ExceptionsListResponse = ExceptionsListResponses[keyof ExceptionsListResponses];
export type ExceptionsCreateData = {
    body: BusinessExceptionCreate;
    headers?: {
        /**
         * The same key and body return the first answer; the same key with another body is 409 `conflict`.
         */
        'Idempotency-Key'?: string;
    };
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/exceptions';
};
export type ExceptionsCreateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type ExceptionsCreateError = ExceptionsCreateErrors[keyof ExceptionsCreateErrors];
export type ExceptionsCreateResponses = {
    /**
     * Record a business exception
     */
    201: BusinessExceptionRead;
};
export type ExceptionsCreateResponse = ExceptionsCreateResponses[keyof ExceptionsCreateResponses];
export type ExceptionsGetData = {
    body?: never;
    path: {
        tenant_id: string;
        exception_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/exceptions/{exception_id}';
};
export type ExceptionsGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type ExceptionsGetError = ExceptionsGetErrors[keyof ExceptionsGetErrors];
export type ExceptionsGetResponses = {
    /**
     * Get a business exception
     */
    200: BusinessExceptionRead;
};
export type ExceptionsGetResponse = ExceptionsGetResponses[keyof ExceptionsGetResponses];
export type ExceptionsChangeStatusData = {
    body: BusinessExceptionStatusChange;
    path: {
        tenant_id: string;
        exception_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/exceptions/{exception_id}/status';
};
export type ExceptionsChangeStatusErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type ExceptionsChangeStatusError = ExceptionsChangeStatusErrors[keyof ExceptionsChangeStatusErrors];
export type ExceptionsChangeStatusResponses = {
    /**
     * Acknowledge or resolve a business exception
     */
    200: BusinessExceptionRead;
};
export type ExceptionsChangeStatusResponse = ExceptionsChangeStatusResponses[keyof ExceptionsChangeStatusResponses];
export type EscalationPoliciesListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/escalation-policies';
};
export type EscalationPoliciesListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type EscalationPoliciesListError = EscalationPoliciesListErrors[keyof EscalationPoliciesListErrors];
export type EscalationPoliciesListResponses = {
    /**
     * List escalation policies, newest first
     */
    200: EscalationPolicyList;
};
export type EscalationPoliciesListResponse = EscalationPoliciesListResponses[keyof EscalationPoliciesListResponses];
export type EscalationPoliciesCreateData = {
    body: EscalationPolicyCreate;
    headers?: {
        /**
         * The same key and body return the first answer; the same key with another body is 409 `conflict`.
         */
        'Idempotency-Key'?: string;
    };
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/escalation-policies';
};
export type EscalationPoliciesCreateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type EscalationPoliciesCreateError = EscalationPoliciesCreateErrors[keyof EscalationPoliciesCreateErrors];
export type EscalationPoliciesCreateResponses = {
    /**
     * Create an escalation policy
     */
    201: EscalationPolicyRead;
};
export type EscalationPoliciesCreateResponse = EscalationPoliciesCreateResponses[keyof EscalationPoliciesCreateResponses];
export type EscalationPoliciesDeleteData = {
    body?: never;
    path: {
        tenant_id: string;
        policy_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/escalation-policies/{policy_id}';
};
export type EscalationPoliciesDeleteErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type EscalationPoliciesDeleteError = EscalationPoliciesDeleteErrors[keyof EscalationPoliciesDeleteErrors];
export type EscalationPoliciesDeleteResponses = {
    /**
     * Delete an escalation policy (its escalations stop)
     */
    204: void;
};
export type EscalationPoliciesDeleteResponse = EscalationPoliciesDeleteResponses[keyof EscalationPoliciesDeleteResponses];
export type EscalationPoliciesGetData = {
    body?: never;
    path: {
        tenant_id: string;
        policy_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/escalation-policies/{policy_id}';
};
export type EscalationPoliciesGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type EscalationPoliciesGetError = EscalationPoliciesGetErrors[keyof EscalationPoliciesGetErrors];
export type EscalationPoliciesGetResponses = {
    /**
     * Get an escalation policy
     */
    200: EscalationPolicyRead;
};
export type EscalationPoliciesGetResponse = EscalationPoliciesGetResponses[keyof EscalationPoliciesGetResponses];
export type EscalationPoliciesUpdateData = {
    body: EscalationPolicyUpdate;
    path: {
        tenant_id: string;
        policy_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/escalation-policies/{policy_id}';
};
export type EscalationPoliciesUpdateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type EscalationPoliciesUpdateError = EscalationPoliciesUpdateErrors[keyof EscalationPoliciesUpdateErrors];
export type EscalationPoliciesUpdateResponses = {
    /**
     * Change an escalation policy (naming its current version)
     */
    200: EscalationPolicyRead;
};
export type EscalationPoliciesUpdateResponse = EscalationPoliciesUpdateResponses[keyof EscalationPoliciesUpdateResponses];
export type AuditListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        entity_type?: string;
        entity_id?: string;
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/audit-events';
};
export type AuditListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AuditListError = AuditListErrors[keyof AuditListErrors];
export type AuditListResponses = {
    /**
     * List the tenant's audit events, newest first
     */
    200: AuditEventList;
};
export type AuditListResponse = AuditListResponses[keyof AuditListResponses];
export type TimersListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        kind?: 'rule_schedule' | 'escalation' | 'ack_timeout' | 'task_due' | 'document_due' | 'hub_schedule' | 'oauth_refresh' | 'export_window' | 'notification_release' | 'notification_digest' | 'webhook_retry' | 'rule_delay';
        subject_type?: string;
        subject_id?: string;
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/timers';
};
export type TimersListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type TimersListError = TimersListErrors[keyof TimersListErrors];
export type TimersListResponses = {
    /**
     * List the tenant's pending timers, soonest first
     */
    200: TimerList;
};
export type TimersListResponse = TimersListResponses[keyof TimersListResponses];
export type NotificationsListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        status?: 'blocked' | 'queued' | 'delivering' | 'delivered' | 'retrying' | 'gated' | 'dead_lettered' | 'discarded' | 'suppressed' | 'scheduled' | 'digesting' | 'digested';
        channel?: NotificationChannel;
        recipient?: string;
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/notifications';
};
export type NotificationsListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type NotificationsListError = NotificationsListErrors[keyof NotificationsListErrors];
export type NotificationsListResponses = {
    /**
     * List notifications with their attempts, newest first
     */
    200: NotificationList;
};
export type NotificationsListResponse = NotificationsListResponses[keyof NotificationsListResponses];
export type NotificationsCreateData = {
    body: NotificationCreate;
    headers?: {
        /**
         * The same key and body return the first answer; the same key with another body is 409 `conflict`.
         */
        'Idempotency-Key'?: string;
    };
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/notifications';
};
export type NotificationsCreateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type NotificationsCreateError = NotificationsCreateErrors[keyof NotificationsCreateErrors];
export type NotificationsCreateResponses = {
    /**
     * Draft a notification: policy check, then queued (202) or blocked (422 policy_rejected)
     */
    202: NotificationRead;
};
export type NotificationsCreateResponse = NotificationsCreateResponses[keyof NotificationsCreateResponses];
export type NotificationsGetData = {
    body?: never;
    path: {
        tenant_id: string;
        notification_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/notifications/{notification_id}';
};
export type NotificationsGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type NotificationsGetError = NotificationsGetErrors[keyof NotificationsGetErrors];
export type NotificationsGetResponses = {
    /**
     * Get a notification with its attempts
     */
    200: NotificationRead;
};
export type NotificationsGetResponse = NotificationsGetResponses[keyof NotificationsGetResponses];
export type InboxListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        unread?: boolean;
        category?: NotificationCategory;
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/inbox';
};
export type InboxListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type InboxListError = InboxListErrors[keyof InboxListErrors];
export type InboxListResponses = {
    /**
     * List the caller's in-app notifications in the tenant, newest first
     */
    200: InboxItemList;
};
export type InboxListResponse = InboxListResponses[keyof InboxListResponses];
export type InboxSummaryData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/inbox/summary';
};
export type InboxSummaryErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type InboxSummaryError = InboxSummaryErrors[keyof InboxSummaryErrors];
export type InboxSummaryResponses = {
    /**
     * Count the caller's unread in-app notifications, in all and by category
     */
    200: InboxSummaryRead;
};
export type InboxSummaryResponse = InboxSummaryResponses[keyof InboxSummaryResponses];
export type InboxReadData = {
    body?: never;
    path: {
        tenant_id: string;
        notification_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/inbox/{notification_id}/read';
};
export type InboxReadErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type InboxReadError = InboxReadErrors[keyof InboxReadErrors];
export type InboxReadResponses = {
    /**
     * Mark one of the caller's in-app notifications read
     */
    200: InboxItemRead;
};
export type InboxReadResponse = InboxReadResponses[keyof InboxReadResponses];
export type InboxUnreadData = {
    body?: never;
    path: {
        tenant_id: string;
        notification_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/inbox/{notification_id}/unread';
};
export type InboxUnreadErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type InboxUnreadError = InboxUnreadErrors[keyof InboxUnreadErrors];
export type InboxUnreadResponses = {
    /**
     * Mark one of the caller's in-app notifications unread again
     */
    200: InboxItemRead;
};
export type InboxUnreadResponse = InboxUnreadResponses[keyof InboxUnreadResponses];
export type InboxReadAllData = {
    body: InboxReadAll;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/inbox/read-all';
};
export type InboxReadAllErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type InboxReadAllError = InboxReadAllErrors[keyof InboxReadAllErrors];
export type InboxReadAllResponses = {
    /**
     * Mark all of the caller's unread in-app notifications read, or those of one category
     */
    200: InboxReadAllResult;
};
export type InboxReadAllResponse = InboxReadAllResponses[keyof InboxReadAllResponses];
export type PreferencesGetData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/me/preferences';
};
export type PreferencesGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type PreferencesGetError = PreferencesGetErrors[keyof PreferencesGetErrors];
export type PreferencesGetResponses = {
    /**
     * The caller's own notification preferences in the tenant: contacts, mutes, quiet hours
     */
    200: PreferencesRead;
};
export type PreferencesGetResponse = PreferencesGetResponses[keyof PreferencesGetResponses];
export type PreferencesPutData = {
    body: PreferencesPut;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/me/preferences';
};
export type PreferencesPutErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type PreferencesPutError = PreferencesPutErrors[keyof PreferencesPutErrors];
export type PreferencesPutResponses = {
    /**
     * Replace the caller's own notification preferences in the tenant (audited without the addresses)
     */
    200: PreferencesRead;
};
export type PreferencesPutResponse = PreferencesPutResponses[keyof PreferencesPutResponses];
export type ReviewItemsListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        status?: 'open' | 'retried' | 'discarded' | 'resolved';
        kind?: 'notification' | 'workflow_action' | 'accounting_export' | 'integration_issue' | 'webhook_endpoint';
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/review-items';
};
export type ReviewItemsListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type ReviewItemsListError = ReviewItemsListErrors[keyof ReviewItemsListErrors];
export type ReviewItemsListResponses = {
    /**
     * List operator review items of every kind (notifications, workflow actions, integration issues, accounting exports), newest first
     */
    200: ReviewItemList;
};
export type ReviewItemsListResponse = ReviewItemsListResponses[keyof ReviewItemsListResponses];
export type ReviewItemsDecideData = {
    body: ReviewDecision;
    path: {
        tenant_id: string;
        review_item_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/review-items/{review_item_id}/decision';
};
export type ReviewItemsDecideErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type ReviewItemsDecideError = ReviewItemsDecideErrors[keyof ReviewItemsDecideErrors];
export type ReviewItemsDecideResponses = {
    /**
     * Decide a review item of any kind: retry (the job again) or discard
     */
    200: ReviewItemRead;
};
export type ReviewItemsDecideResponse = ReviewItemsDecideResponses[keyof ReviewItemsDecideResponses];
export type DocumentsListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        document_type?: 'invoice' | 'payment' | 'credit_note';
        status?: 'draft' | 'open' | 'paid' | 'void';
        counterparty?: string;
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/documents';
};
export type DocumentsListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type DocumentsListError = DocumentsListErrors[keyof DocumentsListErrors];
export type DocumentsListResponses = {
    /**
     * List documents, newest first
     */
    200: DocumentList;
};
export type DocumentsListResponse = DocumentsListResponses[keyof DocumentsListResponses];
export type DocumentsCreateData = {
    body: DocumentCreate;
    headers?: {
        /**
         * The same key and body return the first answer; the same key with another body is 409 `conflict`.
         */
        'Idempotency-Key'?: string;
    };
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/documents';
};
export type DocumentsCreateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type DocumentsCreateError = DocumentsCreateErrors[keyof DocumentsCreateErrors];
export type DocumentsCreateResponses = {
    /**
     * Record an invoice, payment or credit note (as draft)
     */
    201: DocumentRead;
};
export type DocumentsCreateResponse = DocumentsCreateResponses[keyof DocumentsCreateResponses];
export type DocumentsGetData = {
    body?: never;
    path: {
        tenant_id: string;
        document_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/documents/{document_id}';
};
export type DocumentsGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type DocumentsGetError = DocumentsGetErrors[keyof DocumentsGetErrors];
export type DocumentsGetResponses = {
    /**
     * Get a document
     */
    200: DocumentRead;
};
export type DocumentsGetResponse = DocumentsGetResponses[keyof DocumentsGetResponses];
export type DocumentsChangeStatusData = {
    body: DocumentStatusChange;
    path: {
        tenant_id: string;
        document_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/documents/{document_id}/status';
};
export type DocumentsChangeStatusErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type DocumentsChangeStatusError = DocumentsChangeStatusErrors[keyof DocumentsChangeStatusErrors];
export type DocumentsChangeStatusResponses = {
    /**
     * Open, pay or void a document
     */
    200: DocumentRead;
};
export type DocumentsChangeStatusResponse = DocumentsChangeStatusResponses[keyof DocumentsChangeStatusResponses];
export type TasksListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        status?: 'open' | 'in_progress' | 'done' | 'cancelled';
        assignee_id?: string;
        subject_type?: string;
        subject_id?: string;
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/tasks';
};
export type TasksListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type TasksListError = TasksListErrors[keyof TasksListErrors];
export type TasksListResponses = {
    /**
     * List tasks, newest first
     */
    200: TaskList;
};
export type TasksListResponse = TasksListResponses[keyof TasksListResponses];
export type TasksCreateData = {
    body: TaskCreate;
    headers?: {
        /**
         * The same key and body return the first answer; the same key with another body is 409 `conflict`.
         */
        'Idempotency-Key'?: string;
    };
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/tasks';
};
export type TasksCreateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type TasksCreateError = TasksCreateErrors[keyof TasksCreateErrors];
export type TasksCreateResponses = {
    /**
     * Create a task
     */
    201: TaskRead;
};
export type TasksCreateResponse = TasksCreateResponses[keyof TasksCreateResponses];
export type TasksGetData = {
    body?: never;
    path: {
        tenant_id: string;
        task_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/tasks/{task_id}';
};
export type TasksGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type TasksGetError = TasksGetErrors[keyof TasksGetErrors];
export type TasksGetResponses = {
    /**
     * Get a task
     */
    200: TaskRead;
};
export type TasksGetResponse = TasksGetResponses[keyof TasksGetResponses];
export type TasksUpdateData = {
    body: TaskUpdate;
    path: {
        tenant_id: string;
        task_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/tasks/{task_id}';
};
export type TasksUpdateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type TasksUpdateError = TasksUpdateErrors[keyof TasksUpdateErrors];
export type TasksUpdateResponses = {
    /**
     * Change a task's title, description, assignee or due date
     */
    200: TaskRead;
};
export type TasksUpdateResponse = TasksUpdateResponses[keyof TasksUpdateResponses];
export type TasksChangeStatusData = {
    body: TaskStatusChange;
    path: {
        tenant_id: string;
        task_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/tasks/{task_id}/status';
};
export type TasksChangeStatusErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type TasksChangeStatusError = TasksChangeStatusErrors[keyof TasksChangeStatusErrors];
export type TasksChangeStatusResponses = {
    /**
     * Start, reopen, complete or cancel a task
     */
    200: TaskRead;
};
export type TasksChangeStatusResponse = TasksChangeStatusResponses[keyof TasksChangeStatusResponses];
export type WorkflowRulesListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/workflow-rules';
};
export type WorkflowRulesListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WorkflowRulesListError = WorkflowRulesListErrors[keyof WorkflowRulesListErrors];
export type WorkflowRulesListResponses = {
    /**
     * List workflow rules, newest first
     */
    200: WorkflowRuleList;
};
export type WorkflowRulesListResponse = WorkflowRulesListResponses[keyof WorkflowRulesListResponses];
export type WorkflowRulesCreateData = {
    body: WorkflowRuleCreate;
    headers?: {
        /**
         * The same key and body return the first answer; the same key with another body is 409 `conflict`.
         */
        'Idempotency-Key'?: string;
    };
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/workflow-rules';
};
export type WorkflowRulesCreateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WorkflowRulesCreateError = WorkflowRulesCreateErrors[keyof WorkflowRulesCreateErrors];
export type WorkflowRulesCreateResponses = {
    /**
     * Create a workflow rule
     */
    201: WorkflowRuleRead;
};
export type WorkflowRulesCreateResponse = WorkflowRulesCreateResponses[keyof WorkflowRulesCreateResponses];
export type WorkflowRulesDeleteData = {
    body?: never;
    path: {
        tenant_id: string;
        rule_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/workflow-rules/{rule_id}';
};
export type WorkflowRulesDeleteErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WorkflowRulesDeleteError = WorkflowRulesDeleteErrors[keyof WorkflowRulesDeleteErrors];
export type WorkflowRulesDeleteResponses = {
    /**
     * Delete a workflow rule
     */
    204: void;
};
export type WorkflowRulesDeleteResponse = WorkflowRulesDeleteResponses[keyof WorkflowRulesDeleteResponses];
export type WorkflowRulesGetData = {
    body?: never;
    path: {
        tenant_id: string;
        rule_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/workflow-rules/{rule_id}';
};
export type WorkflowRulesGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WorkflowRulesGetError = WorkflowRulesGetErrors[keyof WorkflowRulesGetErrors];
export type WorkflowRulesGetResponses = {
    /**
     * Get a workflow rule
     */
    200: WorkflowRuleRead;
};
export type WorkflowRulesGetResponse = WorkflowRulesGetResponses[keyof WorkflowRulesGetResponses];
export type WorkflowRulesUpdateData = {
    body: WorkflowRuleUpdate;
    path: {
        tenant_id: string;
        rule_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/workflow-rules/{rule_id}';
};
export type WorkflowRulesUpdateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WorkflowRulesUpdateError = WorkflowRulesUpdateErrors[keyof WorkflowRulesUpdateErrors];
export type WorkflowRulesUpdateResponses = {
    /**
     * Change a workflow rule (naming its current version)
     */
    200: WorkflowRuleRead;
};
export type WorkflowRulesUpdateResponse = WorkflowRulesUpdateResponses[keyof WorkflowRulesUpdateResponses];
export type WorkflowRulesTestData = {
    body: WorkflowRuleTest;
    path: {
        tenant_id: string;
        rule_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/workflow-rules/{rule_id}/test';
};
export type WorkflowRulesTestErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WorkflowRulesTestError = WorkflowRulesTestErrors[keyof WorkflowRulesTestErrors];
export type WorkflowRulesTestResponses = {
    /**
     * Try a workflow rule on a sample event: what it would do, changing nothing
     */
    200: WorkflowRuleTestRead;
};
export type WorkflowRulesTestResponse = WorkflowRulesTestResponses[keyof WorkflowRulesTestResponses];
export type WorkflowRunsListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        rule_id?: string;
        status?: 'running' | 'waiting' | 'succeeded' | 'failed';
        subject_type?: string;
        subject_id?: string;
        since?: string;
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/workflow-runs';
};
export type WorkflowRunsListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WorkflowRunsListError = WorkflowRunsListErrors[keyof WorkflowRunsListErrors];
export type WorkflowRunsListResponses = {
    /**
     * List the rules' runs, newest first (by rule, status, subject, since)
     */
    200: WorkflowRunList;
};
export type WorkflowRunsListResponse = WorkflowRunsListResponses[keyof WorkflowRunsListResponses];
export type WorkflowRunsReplayData = {
    body?: never;
    path: {
        tenant_id: string;
        workflow_run_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/workflow-runs/{workflow_run_id}/replay';
};
export type WorkflowRunsReplayErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WorkflowRunsReplayError = WorkflowRunsReplayErrors[keyof WorkflowRunsReplayErrors];
export type WorkflowRunsReplayResponses = {
    /**
     * Replay an ended run: its actions not done run again with the rule as it is now
     */
    202: WorkflowRunRead;
};
export type WorkflowRunsReplayResponse = WorkflowRunsReplayResponses[keyof WorkflowRunsReplayResponses];
export type WorkflowRulesReplayData = {
    body: WorkflowRuleReplay;
    path: {
        tenant_id: string;
        rule_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/workflow-rules/{rule_id}/replay';
};
export type WorkflowRulesReplayErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WorkflowRulesReplayError = WorkflowRulesReplayErrors[keyof WorkflowRulesReplayErrors];
export type WorkflowRulesReplayResponses = {
    /**
     * Replay a rule's failed runs of a period (at most 1,000), asynchronously
     */
    202: WorkflowReplayRead;
};
export type WorkflowRulesReplayResponse = WorkflowRulesReplayResponses[keyof WorkflowRulesReplayResponses];
export type WorkflowReplaysGetData = {
    body?: never;
    path: {
        tenant_id: string;
        replay_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/workflow-replays/{replay_id}';
};
export type WorkflowReplaysGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WorkflowReplaysGetError = WorkflowReplaysGetErrors[keyof WorkflowReplaysGetErrors];
export type WorkflowReplaysGetResponses = {
    /**
     * A rule replay's progress: queued, replayed, skipped
     */
    200: WorkflowReplayRead;
};
export type WorkflowReplaysGetResponse = WorkflowReplaysGetResponses[keyof WorkflowReplaysGetResponses];
export type WorkflowRunsGetData = {
    body?: never;
    path: {
        tenant_id: string;
        workflow_run_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/workflow-runs/{workflow_run_id}';
};
export type WorkflowRunsGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WorkflowRunsGetError = WorkflowRunsGetErrors[keyof WorkflowRunsGetErrors];
export type WorkflowRunsGetResponses = {
    /**
     * Get a workflow run: its trigger, subject and each action's outcome
     */
    200: WorkflowRunRead;
};
export type WorkflowRunsGetResponse = WorkflowRunsGetResponses[keyof WorkflowRunsGetResponses];
export type AdaptersListData = {
    body?: never;
    path?: never;
    query?: {
        category?: 'notification' | 'accounting' | 'bank_feed' | 'crm';
    };
    url: '/adapters';
};
export type AdaptersListErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AdaptersListError = AdaptersListErrors[keyof AdaptersListErrors];
export type AdaptersListResponses = {
    /**
     * The adapter catalog: every adapter a tenant can connect, with its contract
     */
    200: AdapterList;
};
export type AdaptersListResponse = AdaptersListResponses[keyof AdaptersListResponses];
export type AdaptersGetData = {
    body?: never;
    path: {
        adapter_key: string;
    };
    query?: never;
    url: '/adapters/{adapter_key}';
};
export type AdaptersGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AdaptersGetError = AdaptersGetErrors[keyof AdaptersGetErrors];
export type AdaptersGetResponses = {
    /**
     * An adapter's contract: config schema, scopes, mapping keys, failure modes, operations
     */
    200: AdapterContractRead;
};
export type AdaptersGetResponse = AdaptersGetResponses[keyof AdaptersGetResponses];
export type IntegrationConnectionsListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        status?: 'active' | 'disabled';
        adapter_key?: string;
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/integration-connections';
};
export type IntegrationConnectionsListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type IntegrationConnectionsListError = IntegrationConnectionsListErrors[keyof IntegrationConnectionsListErrors];
export type IntegrationConnectionsListResponses = {
    /**
     * List the tenant's connections, newest first
     */
    200: IntegrationConnectionList;
};
export type IntegrationConnectionsListResponse = IntegrationConnectionsListResponses[keyof IntegrationConnectionsListResponses];
export type IntegrationConnectionsCreateData = {
    body: IntegrationConnectionCreate;
    headers?: {
        /**
         * The same key and body return the first answer; the same key with another body is 409 `conflict`.
         */
        'Idempotency-Key'?: string;
    };
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/integration-connections';
};
export type IntegrationConnectionsCreateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type IntegrationConnectionsCreateError = IntegrationConnectionsCreateErrors[keyof IntegrationConnectionsCreateErrors];
export type IntegrationConnectionsCreateResponses = {
    /**
     * Connect the tenant to an adapter (the secret is write-only)
     */
    201: IntegrationConnectionRead;
};
export type IntegrationConnectionsCreateResponse = IntegrationConnectionsCreateResponses[keyof IntegrationConnectionsCreateResponses];
export type IntegrationConnectionsDeleteData = {
    body?: never;
    path: {
        tenant_id: string;
        connection_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/integration-connections/{connection_id}';
};
export type IntegrationConnectionsDeleteErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type IntegrationConnectionsDeleteError = IntegrationConnectionsDeleteErrors[keyof IntegrationConnectionsDeleteErrors];
export type IntegrationConnectionsDeleteResponses = {
    /**
     * Delete a connection and its secret
     */
    204: void;
};
export type IntegrationConnectionsDeleteResponse = IntegrationConnectionsDeleteResponses[keyof IntegrationConnectionsDeleteResponses];
export type IntegrationConnectionsGetData = {
    body?: never;
    path: {
        tenant_id: string;
        connection_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/integration-connections/{connection_id}';
};
export type IntegrationConnectionsGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type IntegrationConnectionsGetError = IntegrationConnectionsGetErrors[keyof IntegrationConnectionsGetErrors];
export type IntegrationConnectionsGetResponses = {
    /**
     * Get a connection (never its secret: only whether one is set)
     */
    200: IntegrationConnectionRead;
};
export type IntegrationConnectionsGetResponse = IntegrationConnectionsGetResponses[keyof IntegrationConnectionsGetResponses];
export type IntegrationConnectionsUpdateData = {
    body: IntegrationConnectionUpdate;
    path: {
        tenant_id: string;
        connection_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/integration-connections/{connection_id}';
};
export type IntegrationConnectionsUpdateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type IntegrationConnectionsUpdateError = IntegrationConnectionsUpdateErrors[keyof IntegrationConnectionsUpdateErrors];
export type IntegrationConnectionsUpdateResponses = {
    /**
     * Change, disable or re-enable a connection; replace or remove its secret
     */
    200: IntegrationConnectionRead;
};
export type IntegrationConnectionsUpdateResponse = IntegrationConnectionsUpdateResponses[keyof IntegrationConnectionsUpdateResponses];
export type IntegrationConnectionsDiagnoseData = {
    body?: never;
    path: {
        tenant_id: string;
        connection_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/integration-connections/{connection_id}/diagnostics';
};
export type IntegrationConnectionsDiagnoseErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type IntegrationConnectionsDiagnoseError = IntegrationConnectionsDiagnoseErrors[keyof IntegrationConnectionsDiagnoseErrors];
export type IntegrationConnectionsDiagnoseResponses = {
    /**
     * Check a connection (config, secret, scopes, mapping, a real request to the provider); a failing check opens an integration issue
     */
    200: IntegrationDiagnosticsRead;
};
export type IntegrationConnectionsDiagnoseResponse = IntegrationConnectionsDiagnoseResponses[keyof IntegrationConnectionsDiagnoseResponses];
export type IntegrationConnectionsAuthorizeData = {
    body?: never;
    path: {
        tenant_id: string;
        connection_id: string;
    };
    query?: {
        /**
         * A page of this service's console, under its configured URL
         */
        return_to?: string;
    };
    url: '/tenants/{tenant_id}/integration-connections/{connection_id}/authorize';
};
export type IntegrationConnectionsAuthorizeErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type IntegrationConnectionsAuthorizeError = IntegrationConnectionsAuthorizeErrors[keyof IntegrationConnectionsAuthorizeErrors];
export type IntegrationConnectionsAuthorizeResponses = {
    /**
     * Start an OAuth 2 connection (Xero, QuickBooks Online): the provider's consent URL with a single-use state valid 10 minutes
     */
    200: IntegrationAuthorizationRead;
};
export type IntegrationConnectionsAuthorizeResponse = IntegrationConnectionsAuthorizeResponses[keyof IntegrationConnectionsAuthorizeResponses];
export type IntegrationConnectionsPreviewMappingData = {
    body: IntegrationMappingPreviewCreate;
    path: {
        tenant_id: string;
        connection_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/integration-connections/{connection_id}/mapping-preview';
};
export type IntegrationConnectionsPreviewMappingErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type IntegrationConnectionsPreviewMappingError = IntegrationConnectionsPreviewMappingErrors[keyof IntegrationConnectionsPreviewMappingErrors];
export type IntegrationConnectionsPreviewMappingResponses = {
    /**
     * What the connection's mapping (or the given one) makes of a provider record; persists nothing
     */
    200: IntegrationMappingPreviewRead;
};
export type IntegrationConnectionsPreviewMappingResponse = IntegrationConnectionsPreviewMappingResponses[keyof IntegrationConnectionsPreviewMappingResponses];
export type IntegrationRepairsPreviewData = {
    body: IntegrationRepairPreviewCreate;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/integration-repairs/preview';
};
export type IntegrationRepairsPreviewErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type IntegrationRepairsPreviewError = IntegrationRepairsPreviewErrors[keyof IntegrationRepairsPreviewErrors];
export type IntegrationRepairsPreviewResponses = {
    /**
     * What would repair a connection's problems: changes, steps and calls; persists nothing
     */
    200: IntegrationRepairPreviewRead;
};
export type IntegrationRepairsPreviewResponse = IntegrationRepairsPreviewResponses[keyof IntegrationRepairsPreviewResponses];
export type ReconciliationRunsListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        status?: 'queued' | 'completed' | 'failed';
        connection_id?: string;
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/reconciliation-runs';
};
export type ReconciliationRunsListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type ReconciliationRunsListError = ReconciliationRunsListErrors[keyof ReconciliationRunsListErrors];
export type ReconciliationRunsListResponses = {
    /**
     * List the tenant's reconciliation runs, newest first
     */
    200: ReconciliationRunList;
};
export type ReconciliationRunsListResponse = ReconciliationRunsListResponses[keyof ReconciliationRunsListResponses];
export type ReconciliationRunsCreateData = {
    body: ReconciliationRunCreate;
    headers?: {
        /**
         * The same key and body return the first answer; the same key with another body is 409 `conflict`.
         */
        'Idempotency-Key'?: string;
    };
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/reconciliation-runs';
};
export type ReconciliationRunsCreateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type ReconciliationRunsCreateError = ReconciliationRunsCreateErrors[keyof ReconciliationRunsCreateErrors];
export type ReconciliationRunsCreateResponses = {
    /**
     * Queue a reconciliation of the provider's records with the tenant's documents
     */
    202: ReconciliationRunRead;
};
export type ReconciliationRunsCreateResponse = ReconciliationRunsCreateResponses[keyof ReconciliationRunsCreateResponses];
export type ReconciliationRunsGetData = {
    body?: never;
    path: {
        tenant_id: string;
        run_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/reconciliation-runs/{run_id}';
};
export type ReconciliationRunsGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type ReconciliationRunsGetError = ReconciliationRunsGetErrors[keyof ReconciliationRunsGetErrors];
export type ReconciliationRunsGetResponses = {
    /**
     * Get a reconciliation run: its counts and the exceptions of its mismatches
     */
    200: ReconciliationRunRead;
};
export type ReconciliationRunsGetResponse = ReconciliationRunsGetResponses[keyof ReconciliationRunsGetResponses];
export type OauthCallbackData = {
    body?: never;
    path?: never;
    query?: {
        code?: string;
        state?: string;
        error?: string;
        realmId?: string;
    };
    url: '/oauth/callback';
};
export type OauthCallbackErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type OauthCallbackError = OauthCallbackErrors[keyof OauthCallbackErrors];
export type OauthCallbackResponses = {
    /**
     * The provider's redirect after consent: exchanges the code, keeps the tokens as the connection's secret, answers a short page
     */
    200: string;
};
export type OauthCallbackResponse = OauthCallbackResponses[keyof OauthCallbackResponses];
export type PreviewsBriefingData = {
    body: BusinessBriefingPreviewCreate;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/previews/briefing';
};
export type PreviewsBriefingErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type PreviewsBriefingError = PreviewsBriefingErrors[keyof PreviewsBriefingErrors];
export type PreviewsBriefingResponses = {
    /**
     * What needs attention for a role, with a risk level (persists nothing)
     */
    200: BusinessBriefingRead;
};
export type PreviewsBriefingResponse = PreviewsBriefingResponses[keyof PreviewsBriefingResponses];
export type PreviewsDetectionData = {
    body: BusinessDetectionPreviewCreate;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/previews/detection';
};
export type PreviewsDetectionErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type PreviewsDetectionError = PreviewsDetectionErrors[keyof PreviewsDetectionErrors];
export type PreviewsDetectionResponses = {
    /**
     * Payment reconciliation findings over the documents (persists nothing)
     */
    200: BusinessDetectionPreviewRead;
};
export type PreviewsDetectionResponse = PreviewsDetectionResponses[keyof PreviewsDetectionResponses];
export type PreviewsEscalationData = {
    body: BusinessEscalationPreviewCreate;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/previews/escalation';
};
export type PreviewsEscalationErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type PreviewsEscalationError = PreviewsEscalationErrors[keyof PreviewsEscalationErrors];
export type PreviewsEscalationResponses = {
    /**
     * Open exceptions triaged by severity and age into queues (persists nothing)
     */
    200: BusinessEscalationPreviewRead;
};
export type PreviewsEscalationResponse = PreviewsEscalationResponses[keyof PreviewsEscalationResponses];
export type PreviewsActionPlanData = {
    body: BusinessActionPlanPreviewCreate;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/previews/action-plan';
};
export type PreviewsActionPlanErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type PreviewsActionPlanError = PreviewsActionPlanErrors[keyof PreviewsActionPlanErrors];
export type PreviewsActionPlanResponses = {
    /**
     * Steps, lanes and approval gates to resolve the open exceptions (persists nothing)
     */
    200: BusinessActionPlanPreviewRead;
};
export type PreviewsActionPlanResponse = PreviewsActionPlanResponses[keyof PreviewsActionPlanResponses];
export type PreviewsActionExecutionData = {
    body: BusinessActionExecutionPreviewCreate;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/previews/action-execution';
};
export type PreviewsActionExecutionErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type PreviewsActionExecutionError = PreviewsActionExecutionErrors[keyof PreviewsActionExecutionErrors];
export type PreviewsActionExecutionResponses = {
    /**
     * Dry run or approval request of action steps: preflight, before and after, rollback (persists nothing)
     */
    200: BusinessActionExecutionPreviewRead;
};
export type PreviewsActionExecutionResponse = PreviewsActionExecutionResponses[keyof PreviewsActionExecutionResponses];
export type PreviewsApprovalGatewayData = {
    body: BusinessApprovalGatewayPreviewCreate;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/previews/approval-gateway';
};
export type PreviewsApprovalGatewayErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type PreviewsApprovalGatewayError = PreviewsApprovalGatewayErrors[keyof PreviewsApprovalGatewayErrors];
export type PreviewsApprovalGatewayResponses = {
    /**
     * Approval requests, policy checks and approver routing with dual control (persists nothing)
     */
    200: BusinessApprovalGatewayPreviewRead;
};
export type PreviewsApprovalGatewayResponse = PreviewsApprovalGatewayResponses[keyof PreviewsApprovalGatewayResponses];
export type PreviewsIntakePipelineData = {
    body: BusinessIntakePipelinePreviewCreate;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/previews/intake-pipeline';
};
export type PreviewsIntakePipelineErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type PreviewsIntakePipelineError = PreviewsIntakePipelineErrors[keyof PreviewsIntakePipelineErrors];
export type PreviewsIntakePipelineResponses = {
    /**
     * Up to 8 provider events normalised, with detections, plan and drafts (persists nothing)
     */
    200: BusinessIntakePipelinePreviewRead;
};
export type PreviewsIntakePipelineResponse = PreviewsIntakePipelineResponses[keyof PreviewsIntakePipelineResponses];
export type OpsMetricsData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/ops/metrics';
};
export type OpsMetricsErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type OpsMetricsError = OpsMetricsErrors[keyof OpsMetricsErrors];
export type OpsMetricsResponses = {
    /**
     * Queue depths, outbox backlog and open review items (platform_admin)
     */
    200: OpsMetricsRead;
};
export type OpsMetricsResponse = OpsMetricsResponses[keyof OpsMetricsResponses];
export type AccountingExportsListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        status?: 'queued' | 'exporting' | 'retrying' | 'exported' | 'partially_exported' | 'failed' | 'gated' | 'discarded';
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/accounting-exports';
};
export type AccountingExportsListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AccountingExportsListError = AccountingExportsListErrors[keyof AccountingExportsListErrors];
export type AccountingExportsListResponses = {
    /**
     * List accounting exports, newest first
     */
    200: AccountingExportList;
};
export type AccountingExportsListResponse = AccountingExportsListResponses[keyof AccountingExportsListResponses];
export type AccountingExportsCreateData = {
    body: AccountingExportCreate;
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/accounting-exports';
};
export type AccountingExportsCreateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AccountingExportsCreateError = AccountingExportsCreateErrors[keyof AccountingExportsCreateErrors];
export type AccountingExportsCreateResponses = {
    /**
     * the export_batch_id was sent before with the same body
     */
    200: AccountingExportRead;
    /**
     * Export up to 50 documents to the tenant's accounting system
     */
    202: AccountingExportRead;
};
export type AccountingExportsCreateResponse = AccountingExportsCreateResponses[keyof AccountingExportsCreateResponses];
export type AccountingExportsGetData = {
    body?: never;
    path: {
        tenant_id: string;
        export_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/accounting-exports/{export_id}';
};
export type AccountingExportsGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type AccountingExportsGetError = AccountingExportsGetErrors[keyof AccountingExportsGetErrors];
export type AccountingExportsGetResponses = {
    /**
     * Get an accounting export with its documents and attempts
     */
    200: AccountingExportRead;
};
export type AccountingExportsGetResponse = AccountingExportsGetResponses[keyof AccountingExportsGetResponses];
export type EventTypesListData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/event-types';
};
export type EventTypesListErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type EventTypesListError = EventTypesListErrors[keyof EventTypesListErrors];
export type EventTypesListResponses = {
    /**
     * The event catalog
     */
    200: EventTypeList;
};
export type EventTypesListResponse = EventTypesListResponses[keyof EventTypesListResponses];
export type WebhookEndpointsListData = {
    body?: never;
    path: {
        tenant_id: string;
    };
    query?: {
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/webhook-endpoints';
};
export type WebhookEndpointsListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WebhookEndpointsListError = WebhookEndpointsListErrors[keyof WebhookEndpointsListErrors];
export type WebhookEndpointsListResponses = {
    /**
     * List webhook endpoints
     */
    200: WebhookEndpointList;
};
export type WebhookEndpointsListResponse = WebhookEndpointsListResponses[keyof WebhookEndpointsListResponses];
export type WebhookEndpointsCreateData = {
    body: WebhookEndpointCreate;
    headers?: {
        /**
         * The same key and body return the first answer; the same key with another body is 409 `conflict`.
         */
        'Idempotency-Key'?: string;
    };
    path: {
        tenant_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/webhook-endpoints';
};
export type WebhookEndpointsCreateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WebhookEndpointsCreateError = WebhookEndpointsCreateErrors[keyof WebhookEndpointsCreateErrors];
export type WebhookEndpointsCreateResponses = {
    /**
     * Create a webhook endpoint
     */
    201: WebhookEndpointCreated;
};
export type WebhookEndpointsCreateResponse = WebhookEndpointsCreateResponses[keyof WebhookEndpointsCreateResponses];
export type WebhookEndpointsDeleteData = {
    body?: never;
    path: {
        tenant_id: string;
        endpoint_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/webhook-endpoints/{endpoint_id}';
};
export type WebhookEndpointsDeleteErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WebhookEndpointsDeleteError = WebhookEndpointsDeleteErrors[keyof WebhookEndpointsDeleteErrors];
export type WebhookEndpointsDeleteResponses = {
    /**
     * Delete a webhook endpoint
     */
    204: void;
};
export type WebhookEndpointsDeleteResponse = WebhookEndpointsDeleteResponses[keyof WebhookEndpointsDeleteResponses];
export type WebhookEndpointsGetData = {
    body?: never;
    path: {
        tenant_id: string;
        endpoint_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/webhook-endpoints/{endpoint_id}';
};
export type WebhookEndpointsGetErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WebhookEndpointsGetError = WebhookEndpointsGetErrors[keyof WebhookEndpointsGetErrors];
export type WebhookEndpointsGetResponses = {
    /**
     * Get a webhook endpoint
     */
    200: WebhookEndpointRead;
};
export type WebhookEndpointsGetResponse = WebhookEndpointsGetResponses[keyof WebhookEndpointsGetResponses];
export type WebhookEndpointsUpdateData = {
    body: WebhookEndpointUpdate;
    path: {
        tenant_id: string;
        endpoint_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/webhook-endpoints/{endpoint_id}';
};
export type WebhookEndpointsUpdateErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WebhookEndpointsUpdateError = WebhookEndpointsUpdateErrors[keyof WebhookEndpointsUpdateErrors];
export type WebhookEndpointsUpdateResponses = {
    /**
     * Change a webhook endpoint
     */
    200: WebhookEndpointRead;
};
export type WebhookEndpointsUpdateResponse = WebhookEndpointsUpdateResponses[keyof WebhookEndpointsUpdateResponses];
export type WebhookEndpointsRotateSecretData = {
    body?: never;
    path: {
        tenant_id: string;
        endpoint_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/webhook-endpoints/{endpoint_id}/rotate-secret';
};
export type WebhookEndpointsRotateSecretErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WebhookEndpointsRotateSecretError = WebhookEndpointsRotateSecretErrors[keyof WebhookEndpointsRotateSecretErrors];
export type WebhookEndpointsRotateSecretResponses = {
    /**
     * Rotate the signing secret
     */
    200: WebhookSecretRead;
};
export type WebhookEndpointsRotateSecretResponse = WebhookEndpointsRotateSecretResponses[keyof WebhookEndpointsRotateSecretResponses];
export type WebhookEndpointsTestData = {
    body?: never;
    path: {
        tenant_id: string;
        endpoint_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/webhook-endpoints/{endpoint_id}/test';
};
export type WebhookEndpointsTestErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WebhookEndpointsTestError = WebhookEndpointsTestErrors[keyof WebhookEndpointsTestErrors];
export type WebhookEndpointsTestResponses = {
    /**
     * Send a test message
     */
    202: WebhookTestRead;
};
export type WebhookEndpointsTestResponse = WebhookEndpointsTestResponses[keyof WebhookEndpointsTestResponses];
export type WebhookEndpointsRecoverData = {
    body: WebhookRecover;
    path: {
        tenant_id: string;
        endpoint_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/webhook-endpoints/{endpoint_id}/recover';
};
export type WebhookEndpointsRecoverErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * The request body is over 256 KiB (`payload_too_large`).
     */
    413: Problem;
    /**
     * The request body is not `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WebhookEndpointsRecoverError = WebhookEndpointsRecoverErrors[keyof WebhookEndpointsRecoverErrors];
export type WebhookEndpointsRecoverResponses = {
    /**
     * Resend failed messages since a time
     */
    202: WebhookQueuedRead;
};
export type WebhookEndpointsRecoverResponse = WebhookEndpointsRecoverResponses[keyof WebhookEndpointsRecoverResponses];
export type WebhookMessagesListData = {
    body?: never;
    path: {
        tenant_id: string;
        endpoint_id: string;
    };
    query?: {
        status?: 'pending' | 'delivered' | 'retrying' | 'failed';
        limit?: number;
        cursor?: string;
    };
    url: '/tenants/{tenant_id}/webhook-endpoints/{endpoint_id}/messages';
};
export type WebhookMessagesListErrors = {
    /**
     * Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).
     */
    400: Problem;
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.
     */
    422: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WebhookMessagesListError = WebhookMessagesListErrors[keyof WebhookMessagesListErrors];
export type WebhookMessagesListResponses = {
    /**
     * An endpoint's delivery log
     */
    200: WebhookMessageList;
};
export type WebhookMessagesListResponse = WebhookMessagesListResponses[keyof WebhookMessagesListResponses];
export type WebhookMessagesResendData = {
    body?: never;
    path: {
        tenant_id: string;
        endpoint_id: string;
        message_id: string;
    };
    query?: never;
    url: '/tenants/{tenant_id}/webhook-endpoints/{endpoint_id}/messages/{message_id}/resend';
};
export type WebhookMessagesResendErrors = {
    /**
     * Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).
     */
    401: Problem;
    /**
     * The caller is a member of the tenant but its role may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * Unknown route or resource, or a tenant the caller is not a member of (`not_found`).
     */
    404: Problem;
    /**
     * A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).
     */
    409: Problem;
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type WebhookMessagesResendError = WebhookMessagesResendErrors[keyof WebhookMessagesResendErrors];
export type WebhookMessagesResendResponses = {
    /**
     * Resend a message
     */
    202: WebhookTestRead;
};
export type WebhookMessagesResendResponse = WebhookMessagesResendResponses[keyof WebhookMessagesResendResponses];
export type PublicHealthData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/health';
};
export type PublicHealthErrors = {
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
    /**
     * The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.
     */
    503: Problem;
};
export type PublicHealthError = PublicHealthErrors[keyof PublicHealthErrors];
export type PublicHealthResponses = {
    /**
     * Health: ok while the table answers a read, else 503
     */
    200: {
        status: 'ok';
    };
};
export type PublicHealthResponse = PublicHealthResponses[keyof PublicHealthResponses];
export type PublicOpenapiData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/openapi.json';
};
export type PublicOpenapiErrors = {
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
};
export type PublicOpenapiError = PublicOpenapiErrors[keyof PublicOpenapiErrors];
export type PublicOpenapiResponses = {
    /**
     * An OpenAPI 3.1 document.
     */
    200: {
        [key: string]: unknown;
    };
};
export type PublicOpenapiResponse = PublicOpenapiResponses[keyof PublicOpenapiResponses];
export type DemoPublicData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/demo/public';
};
export type DemoPublicErrors = {
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
};
export type DemoPublicError = DemoPublicErrors[keyof DemoPublicErrors];
export type DemoPublicResponses = {
    /**
     * Public demo: the fictional tenant, its previews and the embedded notification delivery contract
     */
    200: PublicDemoRead;
};
export type DemoPublicResponse = DemoPublicResponses[keyof DemoPublicResponses];
export type DemoNotificationDeliveryData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/demo/notification-delivery';
};
export type DemoNotificationDeliveryErrors = {
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
};
export type DemoNotificationDeliveryError = DemoNotificationDeliveryErrors[keyof DemoNotificationDeliveryErrors];
export type DemoNotificationDeliveryResponses = {
    /**
     * Notification delivery contract: channels, outbox event, queues, gates, retry, dead letters, review, evidence
     */
    200: NotificationDeliveryContractDemoRead;
};
export type DemoNotificationDeliveryResponse = DemoNotificationDeliveryResponses[keyof DemoNotificationDeliveryResponses];
export type DemoBusinessNotificationChannelsData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/demo/business-notification-channels';
};
export type DemoBusinessNotificationChannelsErrors = {
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
};
export type DemoBusinessNotificationChannelsError = DemoBusinessNotificationChannelsErrors[keyof DemoBusinessNotificationChannelsErrors];
export type DemoBusinessNotificationChannelsResponses = {
    /**
     * Notification channel matrix of the demo tenant
     */
    200: BusinessNotificationChannelMatrixDemoRead;
};
export type DemoBusinessNotificationChannelsResponse = DemoBusinessNotificationChannelsResponses[keyof DemoBusinessNotificationChannelsResponses];
export type DemoConnectorCertificationData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/demo/connector-certification';
};
export type DemoConnectorCertificationErrors = {
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
};
export type DemoConnectorCertificationError = DemoConnectorCertificationErrors[keyof DemoConnectorCertificationErrors];
export type DemoConnectorCertificationResponses = {
    /**
     * Walkthrough: certifying a connector against its adapter contract
     */
    200: ConnectorCertificationDemoRead;
};
export type DemoConnectorCertificationResponse = DemoConnectorCertificationResponses[keyof DemoConnectorCertificationResponses];
export type DemoProviderOnboardingData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/demo/provider-onboarding';
};
export type DemoProviderOnboardingErrors = {
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
};
export type DemoProviderOnboardingError = DemoProviderOnboardingErrors[keyof DemoProviderOnboardingErrors];
export type DemoProviderOnboardingResponses = {
    /**
     * Walkthrough: onboarding a delivery provider until its gate opens
     */
    200: ProviderOnboardingDemoRead;
};
export type DemoProviderOnboardingResponse = DemoProviderOnboardingResponses[keyof DemoProviderOnboardingResponses];
export type DemoIntegrationRepairData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/demo/integration-repair';
};
export type DemoIntegrationRepairErrors = {
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
};
export type DemoIntegrationRepairError = DemoIntegrationRepairErrors[keyof DemoIntegrationRepairErrors];
export type DemoIntegrationRepairResponses = {
    /**
     * Walkthrough: diagnosing and repairing a failing integration
     */
    200: IntegrationRepairDemoRead;
};
export type DemoIntegrationRepairResponse = DemoIntegrationRepairResponses[keyof DemoIntegrationRepairResponses];
export type DemoConnectorFixtureReplayData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/demo/connector-fixture-replay';
};
export type DemoConnectorFixtureReplayErrors = {
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
};
export type DemoConnectorFixtureReplayError = DemoConnectorFixtureReplayErrors[keyof DemoConnectorFixtureReplayErrors];
export type DemoConnectorFixtureReplayResponses = {
    /**
     * Walkthrough: replaying sanitized connector fixtures through the mapping
     */
    200: ConnectorFixtureReplayDemoRead;
};
export type DemoConnectorFixtureReplayResponse = DemoConnectorFixtureReplayResponses[keyof DemoConnectorFixtureReplayResponses];
export type DemoBusinessScenarioReplayData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/demo/business-scenario-replay';
};
export type DemoBusinessScenarioReplayErrors = {
    /**
     * Rate limited (`rate_limited`); retry after `Retry-After` seconds.
     */
    429: Problem;
    /**
     * Unexpected failure (`internal`); the body never shows anything internal.
     */
    500: Problem;
};
export type DemoBusinessScenarioReplayError = DemoBusinessScenarioReplayErrors[keyof DemoBusinessScenarioReplayErrors];
export type DemoBusinessScenarioReplayResponses = {
    /**
     * Walkthrough: a month-end business scenario replayed end to end
     */
    200: BusinessScenarioReplayDemoRead;
};
export type DemoBusinessScenarioReplayResponse = DemoBusinessScenarioReplayResponses[keyof DemoBusinessScenarioReplayResponses];
