/**
 * pig's SigV4 signer against AWS's published Signature Version 4 test suite
 * ("aws-sig-v4-test-suite", https://docs.aws.amazon.com/general/latest/gr/signature-v4-test-suite.html,
 * as the aws4 package's test data reproduces it): credentials AKIDEXAMPLE /
 * wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, region us-east-1, service "service", time
 * 20150830T123600Z. Each vector's expected canonical request, string to sign and Authorization
 * header are copied from the suite. (The signer's agreement with the AWS SDK on Bedrock requests
 * is checked when the fixtures are recorded: the fake server verifies Pi's SDK-signed requests
 * with this signer.)
 */
import { describe, expect, test } from "bun:test";
import { amzDate, canonicalPath, signRequest, signingKey } from "../../src/ai/providers/aws-sigv4.ts";

const CREDENTIALS = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const SCOPE = { region: "us-east-1", service: "service", amzDate: "20150830T123600Z" };
const HOST = { host: "example.amazonaws.com", "x-amz-date": "20150830T123600Z" };
const EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const STS_TOKEN =
  "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==";

interface Vector {
  name: string;
  method: string;
  path: string;
  query?: string;
  headers: Record<string, string>;
  body?: string;
  canonicalRequest: string;
  stringToSign: string;
  authorization: string;
}

const auth = (signedHeaders: string, signature: string) =>
  `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=${signedHeaders}, Signature=${signature}`;
const toSign = (hash: string) => `AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n${hash}`;

const VECTORS: Vector[] = [
  {
    name: "get-vanilla",
    method: "GET",
    path: "/",
    headers: HOST,
    canonicalRequest: `GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY}`,
    stringToSign: toSign("bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63"),
    authorization: auth("host;x-amz-date", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
  },
  {
    name: "post-vanilla",
    method: "POST",
    path: "/",
    headers: HOST,
    canonicalRequest: `POST\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY}`,
    stringToSign: toSign("553f88c9e4d10fc9e109e2aeb65f030801b70c2f6468faca261d401ae622fc87"),
    authorization: auth("host;x-amz-date", "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
  },
  {
    name: "get-vanilla-query-order-key-case",
    method: "GET",
    path: "/",
    query: "Param2=value2&Param1=value1",
    headers: HOST,
    canonicalRequest: `GET\n/\nParam1=value1&Param2=value2\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY}`,
    stringToSign: toSign("816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0"),
    authorization: auth("host;x-amz-date", "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
  },
  {
    name: "get-vanilla-query-order-key (same key, values sorted)",
    method: "GET",
    path: "/",
    query: "Param1=value2&Param1=Value1",
    headers: HOST,
    canonicalRequest: `GET\n/\nParam1=Value1&Param1=value2\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY}`,
    stringToSign: toSign("704b4cef673542d84cdff252633f065e8daeba5f168b77116f8b1bcaf3d38f89"),
    authorization: auth("host;x-amz-date", "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1"),
  },
  {
    name: "get-vanilla-utf8-query",
    method: "GET",
    path: "/",
    query: "ሴ=bar",
    headers: HOST,
    canonicalRequest: `GET\n/\n%E1%88%B4=bar\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY}`,
    stringToSign: toSign("eb30c5bed55734080471a834cc727ae56beb50e5f39d1bff6d0d38cb192a7073"),
    authorization: auth("host;x-amz-date", "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
  },
  {
    name: "get-header-value-trim",
    method: "GET",
    path: "/",
    headers: { host: "example.amazonaws.com", "my-header1": " value1", "my-header2": ' "a   b   c"', "x-amz-date": "20150830T123600Z" },
    canonicalRequest: `GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\nmy-header2:"a b c"\nx-amz-date:20150830T123600Z\n\nhost;my-header1;my-header2;x-amz-date\n${EMPTY}`,
    stringToSign: toSign("a726db9b0df21c14f559d0a978e563112acb1b9e05476f0a6a1c7d68f28605c7"),
    authorization: auth("host;my-header1;my-header2;x-amz-date", "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
  },
  {
    name: "post-header-key-sort",
    method: "POST",
    path: "/",
    headers: { "X-Amz-Date": "20150830T123600Z", "My-Header1": "value1", Host: "example.amazonaws.com" },
    canonicalRequest: `POST\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\nx-amz-date:20150830T123600Z\n\nhost;my-header1;x-amz-date\n${EMPTY}`,
    stringToSign: toSign("9368318c2967cf6de74404b30c65a91e8f6253e0a8659d6d5319f1a812f87d65"),
    authorization: auth("host;my-header1;x-amz-date", "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c"),
  },
  {
    name: "post-x-www-form-urlencoded",
    method: "POST",
    path: "/",
    headers: { "content-type": "application/x-www-form-urlencoded", ...HOST },
    body: "Param1=value1",
    canonicalRequest:
      "POST\n/\n\ncontent-type:application/x-www-form-urlencoded\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\ncontent-type;host;x-amz-date\n9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e",
    stringToSign: toSign("42a5e5bb34198acb3e84da4f085bb7927f2bc277ca766e6d19c73c2154021281"),
    authorization: auth("content-type;host;x-amz-date", "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"),
  },
  {
    name: "post-sts-token/post-sts-header-before",
    method: "POST",
    path: "/",
    headers: { ...HOST, "x-amz-security-token": STS_TOKEN },
    canonicalRequest: `POST\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\nx-amz-security-token:${STS_TOKEN}\n\nhost;x-amz-date;x-amz-security-token\n${EMPTY}`,
    stringToSign: toSign("c237e1b440d4c63c32ca95b5b99481081cb7b13c7e40434868e71567c1a882f6"),
    authorization: auth("host;x-amz-date;x-amz-security-token", "85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead"),
  },
  {
    name: "get-utf8",
    method: "GET",
    path: "/ሴ",
    headers: HOST,
    canonicalRequest: `GET\n/%E1%88%B4\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY}`,
    stringToSign: toSign("2a0a97d02205e45ce2e994789806b19270cfbbb0921b278ccf58f5249ac42102"),
    authorization: auth("host;x-amz-date", "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
  },
  {
    name: "normalize-path/get-space",
    method: "GET",
    path: "/example space/",
    headers: HOST,
    canonicalRequest: `GET\n/example%20space/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY}`,
    stringToSign: toSign("63ee75631ed7234ae61b5f736dfc7754cdccfedbff4b5128a915706ee9390d86"),
    authorization: auth("host;x-amz-date", "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"),
  },
  {
    name: "normalize-path/get-slashes",
    method: "GET",
    path: "//example//",
    headers: HOST,
    canonicalRequest: `GET\n/example/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY}`,
    stringToSign: toSign("cb96b4ac96d501f7c5c15bc6d67b3035061cfced4af6585ad927f7e6c985c015"),
    authorization: auth("host;x-amz-date", "9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84"),
  },
  {
    name: "normalize-path/get-relative-relative",
    method: "GET",
    path: "/example1/example2/../..",
    headers: HOST,
    canonicalRequest: `GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY}`,
    stringToSign: toSign("bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63"),
    authorization: auth("host;x-amz-date", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
  },
];

describe("AWS SigV4 test suite", () => {
  for (const vector of VECTORS) {
    test(vector.name, () => {
      const signed = signRequest(
        { method: vector.method, path: vector.path, query: vector.query ?? "", headers: vector.headers, body: vector.body ?? "" },
        CREDENTIALS,
        SCOPE,
      );
      expect(signed.canonicalRequest).toBe(vector.canonicalRequest);
      expect(signed.stringToSign).toBe(vector.stringToSign);
      expect(signed.authorization).toBe(vector.authorization);
    });
  }
});

describe("the parts around the vectors", () => {
  test("x-amz-date is the UTC time without separators or milliseconds", () => {
    expect(amzDate(new Date("2015-08-30T12:36:00.123Z"))).toBe("20150830T123600Z");
  });

  test("a path already percent-encoded on the wire is encoded again (all services but S3), as Bedrock's model ids are", () => {
    expect(canonicalPath("/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream")).toBe(
      "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%253A0/converse-stream",
    );
    expect(canonicalPath("/a!b*(c)'")).toBe("/a%21b%2A%28c%29%27");
  });

  test("the signing key is the HMAC chain of AWS's documented example (iam, us-east-1, 20150830)", () => {
    // From AWS's "Examples of how to derive a signing key for Signature Version 4".
    expect(signingKey("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20150830", "us-east-1", "iam").toString("hex")).toBe(
      "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9",
    );
  });
});
