import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { buildService } from './service';

/**
 * `cdk synth -c stage=dev -c alarmEmail=you@example.com`: no AWS account or credentials needed.
 * cdk-nag runs as a policy-validation plugin, so a finding that is not acknowledged fails synth.
 */
const app = new App();
buildService(app);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
app.synth();
