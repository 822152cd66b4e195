/**
 * The image of the preflight check: a 64x64 PNG of four colour blocks, large enough for every
 * provider's minimum and small enough to cost a handful of tokens.
 */
export const CHECK_IMAGE_PNG = new Uint8Array(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAmElEQVRoge3YQRFEQQhDwVGCkghDIiIQswr+3rh1FQYYGJK8t53TquN6GogJxAq1T9yuUDujS8iWEhcrEWYu3GjY6RZoWiJrkXKF+kUlClYJsBVkLtBig7uNTvcfvD45rTqup4GYQKzQ+MTjCo0zuoRsKXGxEmHmwo2GnR6BZiSyESlXqF9UomCVAFtB5gItDrg76PR8PsEPCXiRPEm+wMwAAAAASUVORK5CYII=", "base64"));
