import { describe, expect, it } from "vitest";
import { bedrockCapabilityRows, bedrockModelRules, bedrockStopMeaning } from "../src/capabilities/bedrock.ts";
import { canonicalRequest, canonicalUri, signatureOf, signingKey, stringToSign, verifySigV4, type ReceivedRequest } from "./support/strict/sigv4.ts";

describe("bedrockModelRules", () => {
  it("reads cross-region inference profile ids as their base model", () => {
    const rules = bedrockModelRules("us.anthropic.claude-sonnet-4-5-20250929-v1:0");
    expect(rules).toMatchObject({ known: true, baseId: "anthropic.claude-sonnet-4-5-20250929-v1:0", thinking: "budget", vision: true, temperature: { min: 0, max: 1 } });
    expect(bedrockModelRules("eu.anthropic.claude-haiku-4-5-20251001-v1:0").family).toBe(rules.family);
    expect(bedrockModelRules("global.anthropic.claude-sonnet-4-6").thinking).toBe("adaptive");
  });

  it("sends Opus 4.7 no temperature and only adaptive thinking (adaptive-thinking page; sampling parameters removed)", () => {
    expect(bedrockModelRules("us.anthropic.claude-opus-4-7")).toMatchObject({ known: true, temperature: null, thinking: "adaptive" });
  });

  it("uses adaptive thinking on Opus 4.6 (budget_tokens deprecated there) and a budget on 4 / 4.1 / 4.5", () => {
    expect(bedrockModelRules("anthropic.claude-opus-4-6-v1").thinking).toBe("adaptive");
    expect(bedrockModelRules("anthropic.claude-opus-4-1-20250805-v1:0").thinking).toBe("budget");
    expect(bedrockModelRules("anthropic.claude-opus-4-5-20251101-v1:0").thinking).toBe("budget");
  });

  it("covers Nova, Llama vision and Titan embeddings with their limits", () => {
    expect(bedrockModelRules("amazon.nova-pro-v1:0")).toMatchObject({ thinking: "none", maxOutputTokens: 10_000, vision: true });
    expect(bedrockModelRules("amazon.nova-micro-v1:0").vision).toBe(false);
    expect(bedrockModelRules("us.meta.llama3-2-11b-instruct-v1:0")).toMatchObject({ vision: true, maxOutputTokens: 2_048 });
    expect(bedrockModelRules("amazon.titan-embed-text-v2:0")).toMatchObject({ embedding: true, temperature: null });
  });

  it("gives an unknown id the safe choice and never throws", () => {
    expect(bedrockModelRules("acme.future-model-v9:0")).toMatchObject({ known: false, temperature: null, thinking: "none" });
    expect(bedrockModelRules("")).toMatchObject({ known: false });
  });

  it("maps every Converse stop reason (enums.d.ts StopReason)", () => {
    expect(["end_turn", "stop_sequence"].map(bedrockStopMeaning)).toEqual(["complete", "complete"]);
    expect(bedrockStopMeaning("max_tokens")).toBe("truncated");
    expect(["content_filtered", "guardrail_intervened"].map(bedrockStopMeaning)).toEqual(["refused", "refused"]);
    expect(["model_context_window_exceeded", "tool_use", "malformed_tool_use"].map(bedrockStopMeaning)).toEqual(Array(3).fill("unusable-give-up"));
    expect(bedrockStopMeaning("malformed_model_output")).toBe("unusable-ask-again");
    expect(bedrockStopMeaning(undefined)).toBe("unusable-ask-again");
  });

  it("returns a cited capability row per family", () => {
    const rows = bedrockCapabilityRows();
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const row of rows) {
      expect(row.provider).toBe("bedrock");
      expect(row.source).toMatch(/https:\/\/docs\.aws\.amazon\.com\//);
    }
    expect(rows.find((r) => r.family.startsWith("Amazon Titan"))!.roles).toEqual(["embedder"]);
  });
});

/**
 * AWS's published SigV4 test suite (the "aws-sig-v4-test-suite" vectors, documented at
 * https://docs.aws.amazon.com/general/latest/gr/signature-v4-test-suite.html): key AKIDEXAMPLE,
 * secret wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, us-east-1, service "service", 20150830T123600Z.
 */
describe("sigv4 against AWS's published examples", () => {
  const secret = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "us-east-1", service: "service" };
  const AMZ_DATE = "20150830T123600Z";
  const headers = { host: "example.amazonaws.com", "x-amz-date": AMZ_DATE };
  const signedHeaders = ["host", "x-amz-date"];
  const EMPTY_SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  const suite = (method: string, path: string): ReceivedRequest => ({ method, path, headers: { ...headers }, body: "" });

  it("get-vanilla: canonical request, string to sign and signature", () => {
    const req = suite("GET", "/");
    const canonical = canonicalRequest(req, signedHeaders, EMPTY_SHA);
    expect(canonical).toBe(`GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:${AMZ_DATE}\n\nhost;x-amz-date\n${EMPTY_SHA}`);
    expect(stringToSign(AMZ_DATE, "20150830/us-east-1/service/aws4_request", canonical)).toBe(
      `AWS4-HMAC-SHA256\n${AMZ_DATE}\n20150830/us-east-1/service/aws4_request\nbb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63`,
    );
    expect(signatureOf(req, secret, AMZ_DATE, signedHeaders)).toBe("5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
  });

  it("get-vanilla-query-order-key-case: query parameters are sorted", () => {
    expect(signatureOf(suite("GET", "/?Param2=value2&Param1=value1"), secret, AMZ_DATE, signedHeaders)).toBe("b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
  });

  it("post-vanilla", () => {
    const req = suite("POST", "/");
    expect(stringToSign(AMZ_DATE, "20150830/us-east-1/service/aws4_request", canonicalRequest(req, signedHeaders, EMPTY_SHA)).split("\n")[3]).toBe(
      "553f88c9e4d10fc9e109e2aeb65f030801b70c2f6468faca261d401ae622fc87",
    );
    expect(signatureOf(req, secret, AMZ_DATE, signedHeaders)).toBe("5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
  });

  it("derives the documented IAM example signing key", () => {
    expect(signingKey(secret.secretAccessKey, "20150830", "us-east-1", "iam").toString("hex")).toBe("c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9");
  });

  it("verifies the published get-vanilla Authorization header, and refuses it altered", () => {
    const authorization = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31";
    const req = (over: Partial<ReceivedRequest> = {}, auth = authorization): ReceivedRequest => ({ ...suite("GET", "/"), ...over, headers: { ...headers, authorization: auth, ...(over.headers ?? {}) } });
    expect(verifySigV4(req(), secret, null)).toEqual({ ok: true, accessKeyId: "AKIDEXAMPLE" });
    expect(verifySigV4(req({ body: "x" }), secret, null)).toMatchObject({ ok: false, errorType: "InvalidSignatureException" });
    expect(verifySigV4(req({ path: "/other" }), secret, null)).toMatchObject({ ok: false, errorType: "InvalidSignatureException" });
    expect(verifySigV4(req({}, authorization.replace("5fa00f", "5fa00e")), secret, null)).toMatchObject({ ok: false, errorType: "InvalidSignatureException" });
    expect(verifySigV4(req(), { ...secret, secretAccessKey: "other" }, null)).toMatchObject({ ok: false, errorType: "InvalidSignatureException" });
    expect(verifySigV4(req(), { ...secret, accessKeyId: "AKIDOTHER" }, null)).toMatchObject({ ok: false, errorType: "UnrecognizedClientException" });
    expect(verifySigV4(req(), { ...secret, region: "eu-west-1" }, null)).toMatchObject({ ok: false, errorType: "InvalidSignatureException" });
    expect(verifySigV4({ ...suite("GET", "/") }, secret, null)).toMatchObject({ ok: false, errorType: "MissingAuthenticationTokenException" });
    // Fifteen minutes either side of the request time, and no more.
    expect(verifySigV4(req(), secret, Date.UTC(2015, 7, 30, 12, 50, 0))).toMatchObject({ ok: true });
    expect(verifySigV4(req(), secret, Date.UTC(2015, 7, 30, 12, 52, 0))).toMatchObject({ ok: false, errorType: "InvalidSignatureException" });
  });

  it("encodes each path segment again, so a Bedrock model id's ':' is signed as %253A", () => {
    expect(canonicalUri("/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse")).toBe("/model/us.anthropic.claude-sonnet-4-5-20250929-v1%253A0/converse");
    expect(canonicalUri("/a/./b/../c/")).toBe("/a/c/");
  });
});
