//! Punycode (RFC 3492) and the ASCII form of a name built from it, label by label at `.`
//! (IDNA's `xn--`), as a JavaScript client writes an MCP server's or tool's name that holds a
//! character past ASCII: Copilot CLI 1.0.102's `café` is `xn--caf-dma` (attacks row 1862).

const BASE: u32 = 36;
const TMIN: u32 = 1;
const TMAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 128;
/// The prefix of a label written in punycode.
pub const ACE: &str = "xn--";

fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = if first { delta / DAMP } else { delta / 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > ((BASE - TMIN) * TMAX) / 2 {
        delta /= BASE - TMIN;
        k += BASE;
    }
    k + (BASE - TMIN + 1) * delta / (delta + SKEW)
}

fn threshold(k: u32, bias: u32) -> u32 {
    k.saturating_sub(bias).clamp(TMIN, TMAX)
}

fn digit(d: u32) -> char {
    match d {
        0..=25 => (b'a' + d as u8) as char,
        _ => (b'0' + (d - 26) as u8) as char,
    }
}

fn value(c: char) -> Option<u32> {
    match c {
        'a'..='z' => Some(c as u32 - 'a' as u32),
        'A'..='Z' => Some(c as u32 - 'A' as u32),
        '0'..='9' => Some(c as u32 - '0' as u32 + 26),
        _ => None,
    }
}

/// `input` in punycode (without the `xn--`); `None` on an overflow.
pub fn encode(input: &str) -> Option<String> {
    let chars: Vec<u32> = input.chars().map(u32::from).collect();
    let mut out: String = input.chars().filter(char::is_ascii).collect();
    let basic = out.len() as u32;
    let mut handled = basic;
    if basic > 0 {
        out.push('-');
    }
    let (mut n, mut delta, mut bias) = (INITIAL_N, 0u32, INITIAL_BIAS);
    while (handled as usize) < chars.len() {
        let m = chars.iter().copied().filter(|&c| c >= n).min()?;
        delta = delta.checked_add((m - n).checked_mul(handled + 1)?)?;
        n = m;
        for &c in &chars {
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    out.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(digit(q));
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n = n.checked_add(1)?;
    }
    Some(out)
}

/// The text punycode `input` (without the `xn--`) spells; `None` where it is not punycode.
pub fn decode(input: &str) -> Option<String> {
    let (basic, rest) = match input.rfind('-') {
        Some(at) => (&input[..at], &input[at + 1..]),
        None => ("", input),
    };
    if !basic.is_ascii() {
        return None;
    }
    let mut out: Vec<char> = basic.chars().collect();
    let (mut n, mut i, mut bias) = (INITIAL_N, 0u32, INITIAL_BIAS);
    let mut digits = rest.chars();
    while let Some(mut c) = digits.next() {
        let old = i;
        let mut w = 1u32;
        let mut k = BASE;
        loop {
            let d = value(c)?;
            i = i.checked_add(d.checked_mul(w)?)?;
            let t = threshold(k, bias);
            if d < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
            c = digits.next()?;
        }
        let len = out.len() as u32 + 1;
        bias = adapt(i - old, len, old == 0);
        n = n.checked_add(i / len)?;
        i %= len;
        out.insert(i as usize, char::from_u32(n).filter(|c| !c.is_ascii())?);
        i += 1;
    }
    Some(out.into_iter().collect())
}

/// `name` with each `.`-separated label that holds a character past ASCII written `xn--` and
/// its punycode (punycode.js's `toASCII`, which keeps the case of ASCII letters).
pub fn to_ascii(name: &str) -> String {
    name.split('.')
        .map(|label| match label.is_ascii() {
            true => label.to_string(),
            false => encode(label).map_or_else(|| label.to_string(), |p| format!("{ACE}{p}")),
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// The text a written label `xn--PUNYCODE` stands for; `None` where `label` is not one, or
/// spells a control character (`xn--caf`, a reading of Copilot's `xn--caf-dma-run` cut short).
pub fn label_of(label: &str) -> Option<String> {
    let code = label
        .get(..ACE.len())
        .filter(|p| p.eq_ignore_ascii_case(ACE))
        .map(|_| &label[ACE.len()..])?;
    decode(code).filter(|text| !text.is_ascii() && !text.chars().any(char::is_control))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_copilot_wrote_round_trip() {
        // Copilot CLI 1.0.102, run (tests/fixtures/mcp-names/copilot-1.0.102.json).
        for (text, code) in [("café", "caf-dma"), ("tö", "t-1ga")] {
            assert_eq!(encode(text).as_deref(), Some(code));
            assert_eq!(decode(code).as_deref(), Some(text));
            assert_eq!(label_of(&format!("xn--{code}")).as_deref(), Some(text));
        }
        // RFC 3492's sample (L): 3<nen>B<gumi><kinpachi><sensei>.
        let text = "3年B組金八先生";
        assert_eq!(encode(text).as_deref(), Some("3B-ww4c5e180e575a65lsy2b"));
        assert_eq!(decode("3B-ww4c5e180e575a65lsy2b").as_deref(), Some(text));
        assert_eq!(to_ascii("café.p q"), "xn--caf-dma.p q");
        assert_eq!(to_ascii("Up_Case"), "Up_Case");
        assert_eq!(label_of("xn--caf"), None);
        assert_eq!(label_of("srv"), None);
        assert_eq!(label_of("xn--a-"), None);
    }
}
