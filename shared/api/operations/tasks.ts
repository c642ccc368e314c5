import { TenantPath } from '#shared/api/schemas/common';
import { TaskCreate, TaskListQuery, TaskPath, TaskStatusChange, TaskUpdate } from '#shared/api/schemas/tasks';
import { op } from './operation';

/** Tasks (docs/api.md section 9). */
export const TASKS_OPERATIONS = {
  'tasks.create': op({
    group: 'tasks',
    method: 'POST',
    path: '/tenants/{tenant_id}/tasks',
    summary: 'Create a task',
    auth: 'bearer',
    permission: 'tasks.write',
    params: TenantPath,
    body: TaskCreate,
    idempotent: true,
    status: 201,
  }),
  'tasks.list': op({
    group: 'tasks',
    method: 'GET',
    path: '/tenants/{tenant_id}/tasks',
    summary: 'List tasks, newest first',
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: TaskListQuery,
    status: 200,
  }),
  'tasks.get': op({
    group: 'tasks',
    method: 'GET',
    path: '/tenants/{tenant_id}/tasks/{task_id}',
    summary: 'Get a task',
    auth: 'bearer',
    permission: 'tenant.read',
    params: TaskPath,
    status: 200,
  }),
  'tasks.update': op({
    group: 'tasks',
    method: 'PATCH',
    path: '/tenants/{tenant_id}/tasks/{task_id}',
    summary: "Change a task's title, description, assignee or due date",
    auth: 'bearer',
    permission: 'tasks.write',
    params: TaskPath,
    body: TaskUpdate,
    status: 200,
  }),
  'tasks.changeStatus': op({
    group: 'tasks',
    method: 'POST',
    path: '/tenants/{tenant_id}/tasks/{task_id}/status',
    summary: 'Start, reopen, complete or cancel a task',
    auth: 'bearer',
    permission: 'tasks.write',
    params: TaskPath,
    body: TaskStatusChange,
    status: 200,
  }),
} as const;
