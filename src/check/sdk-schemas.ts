import * as sdk from '@modelcontextprotocol/core';

/** Something with zod's safeParse: the official SDK's schemas. */
export interface ShapeSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

// The message shapes of every method, from the official SDK's own schemas (both the 2025 revisions
// and 2026-07-28): requests and notifications whole, results by the method of their request.

export const requestSchemas: Record<string, ShapeSchema> = {
  initialize: sdk.InitializeRequestSchema,
  ping: sdk.PingRequestSchema,
  'server/discover': sdk.DiscoverRequestSchema,
  'completion/complete': sdk.CompleteRequestSchema,
  'logging/setLevel': sdk.SetLevelRequestSchema,
  'prompts/get': sdk.GetPromptRequestSchema,
  'prompts/list': sdk.ListPromptsRequestSchema,
  'resources/list': sdk.ListResourcesRequestSchema,
  'resources/templates/list': sdk.ListResourceTemplatesRequestSchema,
  'resources/read': sdk.ReadResourceRequestSchema,
  'resources/subscribe': sdk.SubscribeRequestSchema,
  'resources/unsubscribe': sdk.UnsubscribeRequestSchema,
  'subscriptions/listen': sdk.SubscriptionsListenRequestSchema,
  'tools/call': sdk.CallToolRequestSchema,
  'tools/list': sdk.ListToolsRequestSchema,
  'sampling/createMessage': sdk.CreateMessageRequestSchema,
  'roots/list': sdk.ListRootsRequestSchema,
  'elicitation/create': sdk.ElicitRequestSchema,
  'tasks/get': sdk.GetTaskRequestSchema,
  'tasks/result': sdk.GetTaskPayloadRequestSchema,
  'tasks/list': sdk.ListTasksRequestSchema,
  'tasks/cancel': sdk.CancelTaskRequestSchema,
};

export const notificationSchemas: Record<string, ShapeSchema> = {
  'notifications/cancelled': sdk.CancelledNotificationSchema,
  'notifications/progress': sdk.ProgressNotificationSchema,
  'notifications/initialized': sdk.InitializedNotificationSchema,
  'notifications/roots/list_changed': sdk.RootsListChangedNotificationSchema,
  'notifications/message': sdk.LoggingMessageNotificationSchema,
  'notifications/resources/updated': sdk.ResourceUpdatedNotificationSchema,
  'notifications/resources/list_changed': sdk.ResourceListChangedNotificationSchema,
  'notifications/tools/list_changed': sdk.ToolListChangedNotificationSchema,
  'notifications/prompts/list_changed': sdk.PromptListChangedNotificationSchema,
  'notifications/elicitation/complete': sdk.ElicitationCompleteNotificationSchema,
  'notifications/tasks/status': sdk.TaskStatusNotificationSchema,
  'notifications/subscriptions/acknowledged': sdk.SubscriptionsAcknowledgedNotificationSchema,
};

export const resultSchemas: Record<string, ShapeSchema> = {
  initialize: sdk.InitializeResultSchema,
  ping: sdk.EmptyResultSchema,
  'server/discover': sdk.DiscoverResultSchema,
  'completion/complete': sdk.CompleteResultSchema,
  'logging/setLevel': sdk.EmptyResultSchema,
  'prompts/get': sdk.GetPromptResultSchema,
  'prompts/list': sdk.ListPromptsResultSchema,
  'resources/list': sdk.ListResourcesResultSchema,
  'resources/templates/list': sdk.ListResourceTemplatesResultSchema,
  'resources/read': sdk.ReadResourceResultSchema,
  'resources/subscribe': sdk.EmptyResultSchema,
  'resources/unsubscribe': sdk.EmptyResultSchema,
  'subscriptions/listen': sdk.SubscriptionsListenResultSchema,
  'tools/call': sdk.CallToolResultSchema,
  'tools/list': sdk.ListToolsResultSchema,
  'sampling/createMessage': sdk.CreateMessageResultWithToolsSchema,
  'roots/list': sdk.ListRootsResultSchema,
  'elicitation/create': sdk.ElicitResultSchema,
  'tasks/get': sdk.GetTaskResultSchema,
  'tasks/result': sdk.GetTaskPayloadResultSchema,
  'tasks/list': sdk.ListTasksResultSchema,
  'tasks/cancel': sdk.CancelTaskResultSchema,
};

/** The first few problems of a failed parse, as one line. */
export function describeIssues(issues: { path: PropertyKey[]; message: string }[]): string {
  const shown = issues.slice(0, 3).map((issue) => `${issue.path.map(String).join('.') || '(message)'}: ${issue.message}`);
  return `${shown.join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}`;
}
