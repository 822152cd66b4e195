import { ASYNC_REQUESTS } from "./async-requests.ts";
import { AUDIENCES_SIDE_BY_SIDE } from "./audiences-side-by-side.ts";
import { AUTHENTICATION } from "./authentication.ts";
import { CREDITS } from "./credits.ts";
import { ERRORS } from "./errors.ts";
import { HOW_SURE } from "./how-sure.ts";
import { IDEMPOTENCY } from "./idempotency.ts";
import { LIMITS_SECTION } from "./limits.ts";
import { MEASURING_FIDELITY } from "./measuring-fidelity.ts";
import { OVERVIEW } from "./overview.ts";
import { QUICK_START } from "./quick-start.ts";
import { VERSIONING } from "./versioning.ts";
import { WEBHOOKS } from "./webhooks.ts";

/** info.description: the guide a developer reads before the operations, in Markdown. */
export const INTRODUCTION = [OVERVIEW, AUTHENTICATION, QUICK_START, LIMITS_SECTION, CREDITS, ERRORS, IDEMPOTENCY, ASYNC_REQUESTS, WEBHOOKS, HOW_SURE, AUDIENCES_SIDE_BY_SIDE, MEASURING_FIDELITY, VERSIONING].join("\n\n");
