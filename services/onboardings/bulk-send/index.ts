/** One template sent to many clients in one action (docs/decisions/0088-bulk-send.md). */
export { bulkSendRoutes, BULK_SEND_MAX } from './bulk-send-routes.ts';
