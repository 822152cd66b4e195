/** Image bytes as the adapters send them: already fetched, decoded and normalized upstream. */
export interface ImageInput {
  bytes: Uint8Array;
  mime: "image/jpeg" | "image/png" | "image/webp";
}

/** Ad copy fields by their preferred keys (pageName, adBody, adHeadline, adCaption, adDescription). */
export type CopyFields = Record<string, string>;

/**
 * Structured context that only the offline sim reads; real models read the prompt. It lets
 * the sim answer like a persona without parsing prose.
 */
export interface SimHints {
  task: "rate" | "vote";
  goal: string;
  assetType: string;
  platform: string | null;
  /** Copy of the rated ad; for a vote, the copy shared by both images when `copyPerImage` is absent. */
  copy: CopyFields | null;
  /** For a vote: the copy of each image, in prompt order. Overrides `copy`. */
  copyPerImage?: [CopyFields | null, CopyFields | null];
  demographics: Record<string, string>;
  /** 0-based repetition of a scoring evaluation; for a vote, the voter's index in the panel. */
  repetition: number;
  /** 0-based index of the generator within its pair (0 or 1); 0 for a voter. */
  generatorIndex: number;
}

export interface GenerateRequest {
  system: string;
  user: string;
  /** 0, 1 (scoring) or 2 (a panel vote, labelled "Image 1" and "Image 2" by position). */
  images: ImageInput[];
  maxOutputTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** Structured context that only the offline sim reads (real models read the prompt). */
  simHints?: SimHints;
}

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export interface GenerateResult {
  text: string;
  provider: string;
  model: string;
  simulated: boolean;
  usage?: TokenUsage;
}

export interface Generator {
  readonly provider: string;
  readonly model: string;
  generate(req: GenerateRequest): Promise<GenerateResult>;
}

export interface Embedder {
  readonly provider: string;
  readonly model: string;
  /** One vector per text, in input order. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}
