import assert from "node:assert/strict";
import {
  checkPassword,
  containsUserInfo,
  isCommonPassword,
  passwordRules,
  userInfoParts,
} from "./password_policy.ts";

const ANNA = { name: "Anna Admin", email: "anna.admin@demo-ew.ch" };

Deno.test("passwordRules() reports each character rule of spec 5", () => {
  assert.deepEqual(passwordRules("abc"), {
    length: false,
    uppercase: false,
    lowercase: true,
    digit: false,
    symbol: false,
  });
  assert.deepEqual(Object.values(passwordRules("Kx7#mPq2")), [true, true, true, true, true]);
  assert.equal(passwordRules("Kx7 mPq2").symbol, false, "a space is not a symbol");
});

Deno.test("checkPassword() answers 601 (weak) when a character rule of spec 5 is broken", () => {
  for (
    const p of ["Kx7#mPq", "kx7#mpq2vl9z", "KX7#MPQ2VL9Z", "Kx#mPqAvLbz", "Kx7mPq2vL9z", "Abc1!"]
  ) {
    assert.equal(checkPassword(p, ANNA).code, 601, p);
  }
});

Deno.test("checkPassword() answers 611 (breaks a security rule) beyond the maximum length", () => {
  assert.equal(checkPassword(`Kx7#${"a".repeat(130)}`, ANNA).code, 611, "too long");
});

Deno.test("checkPassword() answers 603 for a common password, even decorated or in l33t", () => {
  for (const p of ["Password1!", "P@ssw0rd1!", "Qwerty123!", "Summer2026!"]) {
    assert.equal(checkPassword(p, ANNA).code, 603, p);
  }
  assert.equal(isCommonPassword("Kx7#mPq2vL9z"), false);
});

Deno.test("checkPassword() answers 604 when the password contains the user's name or e-mail", () => {
  assert.equal(checkPassword("Anna-Kettle-42!", ANNA).code, 604);
  assert.equal(checkPassword("Xq-Admin-Moss-42", ANNA).code, 604);
  assert.equal(checkPassword("Demo-Kettle-42!", ANNA).code, 604, "domain part");
  assert.equal(checkPassword("Blue-Kettle-42-Moss", ANNA).code, null);
  assert.deepEqual(userInfoParts(ANNA).sort(), ["admin", "anna", "anna.admin", "demo"]);
  assert.equal(containsUserInfo("xx4nn4xx", ANNA), true, "l33t spelling counts");
});

Deno.test("checkPassword() answers 601 when zxcvbn scores the password below 3", () => {
  const weak = checkPassword("Abcdefg1!", ANNA);
  assert.equal(weak.code, 601);
  assert.ok(weak.score < 3);
  assert.equal(checkPassword("Aa1!aaaa", ANNA).code, 601);
});

Deno.test("checkPassword() accepts a strong password and rates it 3 or more", () => {
  for (const p of ["Kx7#mPq2vL9z", "Blue-Kettle-42-Moss", "Gr1dW@tch-Zeta-77"]) {
    const result = checkPassword(p, ANNA);
    assert.equal(result.code, null, p);
    assert.ok(result.score >= 3);
  }
});
