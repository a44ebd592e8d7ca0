/** E-mail addresses and phone numbers the shared rules (api/validation.ts) take and refuse, for the server's and the web app's tests. */
export const VALID_EMAILS = [
  "mia@studio.test",
  "Mia.Lind@Northfield.co.uk",
  "first.last+tag@example.com",
  "o'connor@example.ie",
  "x@a.io",
  "user_name@sub-domain.example.org",
];

export const INVALID_EMAILS = [
  "mia@",
  "@studio.test",
  "mia",
  "not-an-email",
  "mia@studio",
  "mia@@studio.test",
  "mia lind@studio.test",
  "mia@studio..test",
  "mia@-studio.test",
  "mia@studio.test.",
  "mia@stu dio.test",
];

export const VALID_PHONES = [
  "+46 70 123 45 67",
  "(555) 123-4567",
  "020 7946 0958",
  "555.123.4567",
  "+1 555 0100 x 12",
  "123",
];

export const INVALID_PHONES = ["abc", "12", "+", "call me", "555-CALL-NOW", "<script>", "+46 70 123 45 67; DROP"];
