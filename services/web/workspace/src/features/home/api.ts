/** Home's one call of the workspace API (GET /workspace/v1/home) through the typed client. */
import { call } from '../../../../shared/api/client.ts';
import { api, type ApiAnswer } from '../../api.ts';

export type Home = ApiAnswer<'/workspace/v1/home', 'get'>;
export type HomeItem = Home['sections']['awaiting_review']['items'][number];
export type TemplateFigures = Home['templates'][number];

export const getHome = () => call(api.GET('/workspace/v1/home'));
