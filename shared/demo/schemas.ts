/**
 * Schemas of the public demo records (docs/api.md section 8), one file per group in ./schemas/:
 * what every record is made of (base), the notification records, the walkthroughs, and
 * `/demo/public` with the records it embeds. Imported in that order, as the records were declared.
 */
export {
  DemoApi,
  DemoDataBoundary,
  DemoDocs,
  DemoStatus,
  DemoSummaryCard,
  DemoTenant,
  NOTIFICATION_CHANNELS,
  NotificationChannel,
} from './schemas/base';
export {
  BusinessNotificationChannelMatrixDemoRead,
  NotificationDeliveryContractDemoRead,
} from './schemas/notifications';
export {
  BusinessScenarioReplayDemoRead,
  ConnectorCertificationDemoRead,
  ConnectorFixtureReplayDemoRead,
  IntegrationRepairDemoRead,
  ProviderOnboardingDemoRead,
} from './schemas/walkthroughs';
export {
  BusinessActionExecutionDemoRead,
  BusinessApprovalGatewayDemoRead,
  BusinessContextAssistantDemoRead,
  BusinessIntakePipelineDemoRead,
  BusinessRecordsDemoRead,
  PublicDemoRead,
} from './schemas/public';
