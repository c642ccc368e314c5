import { alarmAndRunbookCases } from './cases/alarms-runbooks';
import { apiAndCdnCases } from './cases/api-cdn';
import { consoleCases } from './cases/console';
import { functionCases } from './cases/functions';
import { limitCases } from './cases/limits';
import { nagCases } from './cases/nag';
import { OAUTH_TEST_CONTEXT, oauthCases } from './cases/oauth';
import { statefulCases } from './cases/stateful';
import { synthService } from './synth';

/**
 * The whole service, synthesized once (no AWS account, no credentials, no bundling) and checked
 * case by case: properties with aws-cdk-lib assertions, cdk-nag, alarms against runbooks.
 */
const service = synthService(OAUTH_TEST_CONTEXT);

statefulCases(service);
functionCases(service);
apiAndCdnCases(service);
consoleCases(service);
alarmAndRunbookCases(service);
nagCases(service);
limitCases(service);
oauthCases(service);
