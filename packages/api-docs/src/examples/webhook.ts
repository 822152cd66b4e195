/** Where the examples' webhooks are delivered: a receiver the client runs itself (https, public addresses). */
export const EXAMPLE_WEBHOOK_URL = "https://hooks.northpeak.example/adrank";
