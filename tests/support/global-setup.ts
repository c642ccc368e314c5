import type { TestProject } from 'vitest/node';
import { type DynamoLocal, startDynamoLocal } from '#local/dynamodb-local';

/**
 * One DynamoDB Local for the whole run (it takes a few seconds to start); every test file
 * creates its own table in it, so files never see each other's data.
 */
let dynamo: DynamoLocal | undefined;

export async function setup(project: TestProject) {
  dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
}

export async function teardown() {
  await dynamo?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
