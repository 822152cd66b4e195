import fp from "fastify-plugin";
import type { AssetImageIntake } from "../rank/evaluate-asset.ts";

declare module "fastify" {
  interface FastifyInstance {
    imageIntake: AssetImageIntake;
  }
}

/** One intake per process: its connection pool and decoded-image cache serve every request. */
export default fp(
  async (app, opts: { intake: AssetImageIntake }) => {
    app.decorate("imageIntake", opts.intake);
  },
  { name: "image-intake" },
);
