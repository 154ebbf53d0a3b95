// Method names per revision, read from each revision of the MCP schema.
// Facts, not policy: what a revision defines, by who sends it.

export const methodsByRevision = {
  "2024-11-05": {
    "clientRequests": [
      "ping",
      "initialize",
      "completion/complete",
      "logging/setLevel",
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "resources/subscribe",
      "resources/unsubscribe",
      "tools/call",
      "tools/list"
    ],
    "serverRequests": [
      "ping",
      "sampling/createMessage",
      "roots/list"
    ],
    "clientNotifications": [
      "notifications/cancelled",
      "notifications/progress",
      "notifications/initialized",
      "notifications/roots/list_changed"
    ],
    "serverNotifications": [
      "notifications/cancelled",
      "notifications/progress",
      "notifications/message",
      "notifications/resources/updated",
      "notifications/resources/list_changed",
      "notifications/tools/list_changed",
      "notifications/prompts/list_changed"
    ]
  },
  "2025-03-26": {
    "clientRequests": [
      "ping",
      "initialize",
      "completion/complete",
      "logging/setLevel",
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "resources/subscribe",
      "resources/unsubscribe",
      "tools/call",
      "tools/list"
    ],
    "serverRequests": [
      "ping",
      "sampling/createMessage",
      "roots/list"
    ],
    "clientNotifications": [
      "notifications/cancelled",
      "notifications/progress",
      "notifications/initialized",
      "notifications/roots/list_changed"
    ],
    "serverNotifications": [
      "notifications/cancelled",
      "notifications/progress",
      "notifications/message",
      "notifications/resources/updated",
      "notifications/resources/list_changed",
      "notifications/tools/list_changed",
      "notifications/prompts/list_changed"
    ]
  },
  "2025-06-18": {
    "clientRequests": [
      "ping",
      "initialize",
      "completion/complete",
      "logging/setLevel",
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "resources/subscribe",
      "resources/unsubscribe",
      "tools/call",
      "tools/list"
    ],
    "serverRequests": [
      "ping",
      "sampling/createMessage",
      "roots/list",
      "elicitation/create"
    ],
    "clientNotifications": [
      "notifications/cancelled",
      "notifications/progress",
      "notifications/initialized",
      "notifications/roots/list_changed"
    ],
    "serverNotifications": [
      "notifications/cancelled",
      "notifications/progress",
      "notifications/message",
      "notifications/resources/updated",
      "notifications/resources/list_changed",
      "notifications/tools/list_changed",
      "notifications/prompts/list_changed"
    ]
  },
  "2025-11-25": {
    "clientRequests": [
      "ping",
      "initialize",
      "completion/complete",
      "logging/setLevel",
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "resources/subscribe",
      "resources/unsubscribe",
      "tools/call",
      "tools/list",
      "tasks/get",
      "tasks/result",
      "tasks/list",
      "tasks/cancel"
    ],
    "serverRequests": [
      "ping",
      "sampling/createMessage",
      "roots/list",
      "elicitation/create",
      "tasks/get",
      "tasks/result",
      "tasks/list",
      "tasks/cancel"
    ],
    "clientNotifications": [
      "notifications/cancelled",
      "notifications/progress",
      "notifications/initialized",
      "notifications/roots/list_changed",
      "notifications/tasks/status"
    ],
    "serverNotifications": [
      "notifications/cancelled",
      "notifications/progress",
      "notifications/message",
      "notifications/resources/updated",
      "notifications/resources/list_changed",
      "notifications/tools/list_changed",
      "notifications/prompts/list_changed",
      "notifications/elicitation/complete",
      "notifications/tasks/status"
    ]
  },
  "2026-07-28": {
    "clientRequests": [
      "server/discover",
      "completion/complete",
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "subscriptions/listen",
      "tools/call",
      "tools/list"
    ],
    "serverRequests": [],
    "clientNotifications": [
      "notifications/cancelled"
    ],
    "serverNotifications": [
      "notifications/cancelled",
      "notifications/progress",
      "notifications/message",
      "notifications/resources/updated",
      "notifications/resources/list_changed",
      "notifications/tools/list_changed",
      "notifications/prompts/list_changed",
      "notifications/subscriptions/acknowledged"
    ]
  }
} as const;
