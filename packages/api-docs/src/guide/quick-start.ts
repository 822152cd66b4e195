// A first request in four steps, pointing at the samples each operation carries.

export const QUICK_START = `## Quick start

1. Create an API key in the account dashboard, and put it and the API's address in your shell (the CLI reads the same two variables):

   \`\`\`sh
   export ADRANK_API_KEY=agk_live_…
   export ADRANK_BASE_URL=http://127.0.0.1:8080   # the address of this API
   \`\`\`

2. Open **Rank creatives** below and run its curl, TypeScript SDK (\`@adrank/sdk\`) or CLI (\`adrank\`) sample, or press **Test request** and enter your key. The example images are small PNG data URIs, so the example works as it is.
3. Read \`ranked\` from the top: rank 1 is the strongest creative for this goal and audience. \`errors\` lists the creatives that could not be scored (they are not billed), and \`summary.scoring_evaluations\` what was.
4. To reuse a persona, save it once with **Create a saved audience** and send its id as \`audience_id\` instead of \`audience\`.

An image is either an \`https://\` URL, which the service fetches, or a \`data:image/\` URI (PNG, JPEG, WebP or GIF). The SDK's \`imageFileToDataUri\` and the CLI turn local files into data URIs.`;
