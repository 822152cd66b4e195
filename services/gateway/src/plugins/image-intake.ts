import fp from "fastify-plugin";
import type { ImageIntake } from "../operations/shared/prepare-image.ts";

declare module "fastify" {
  interface FastifyInstance {
    imageIntake: ImageIntake;
  }
}

/** One intake per process: its connection pool and decoded-image cache serve every request. */
export default fp(
  async (app, opts: { intake: ImageIntake }) => {
    app.decorate("imageIntake", opts.intake);
  },
  { name: "image-intake" },
);
