import { changeTaskStatus, createTask, getTask, listTasks, updateTask } from '#shared/domain/tasks/use-cases';
import { TASKS_OPERATIONS } from '#shared/api/operations/tasks';
import { dbFor } from '#functions/adapters/dynamo';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { taskStore } from '#functions/adapters/task-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';

const db = dbFor(tableConfig());
const deps = { tasks: taskStore(db), clock };

export const handler = httpHandler(
  TASKS_OPERATIONS,
  {
    'tasks.create': ({ principal, params, body }) => createTask(deps, principal, params.tenant_id, body),
    'tasks.list': ({ params, query: { limit, cursor, ...filter } }) =>
      listTasks(deps, params.tenant_id, filter, { limit, cursor }),
    'tasks.get': ({ params }) => getTask(deps, params.tenant_id, params.task_id),
    'tasks.update': ({ principal, params, body }) =>
      updateTask(deps, principal, params.tenant_id, params.task_id, body),
    'tasks.changeStatus': ({ principal, params, body }) =>
      changeTaskStatus(deps, principal, params.tenant_id, params.task_id, body),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
