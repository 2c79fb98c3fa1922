/**
 * The pattern tables of `detectRules` (see its module comment for how they combine). Every table is
 * English and matches a grammatical shape, not a topic: none names the things a rule is about.
 */

/**
 * Leading filler: "please", "also", "remember:", "heads-up:", "just so you know,", a bullet word.
 * Phrases come before the single words they start with ("just so you know" before "just").
 */
export const FILLER =
  /^(?:(?:just so you know|one more thing|oh and|and also|heads[- ]up|for the record|by the way|to be clear|for future reference|quick note|please|pls|also|and|but|so|oh|ok|okay|remember|important|note|rule|reminder|ps|p\.s\.|btw|again|seriously|just|hey|fyi|nb|n\.b\.)\s*[,:!.\-–—]?\s+)*/i;

/** Trailing filler, removed before matching the end of a sentence ("TypeScript only, please."). */
export const TRAILER = /(?:[,\s]+(?:please|thanks|thank you|by the way|btw|ok|okay))*\s*[.!]*$/i;

/** Openings that make a sentence a rule on their own. */
export const STARTS = new RegExp(
  '^(?:' +
    [
      'never(?! mind\\b| seen\\b| been\\b| heard\\b| had\\b| thought\\b| knew\\b)',
      'always(?! the\\b| a\\b| an\\b| been\\b| was\\b| is\\b)',
      'do not',
      "don'?t(?! worry\\b| know\\b| think\\b| understand\\b| see\\b| get\\b| remember\\b| care\\b| mind\\b)",
      'dont(?! worry\\b| know\\b| think\\b)',
      'must',
      'make sure',
      'ensure',
      'avoid',
      'refrain from',
      'under no circumstances',
      'at no point',
      "let'?s (?:always|never)",
      'from now on',
      'going forward',
      'from here on',
      'no matter what',
      'whatever you do',
      'at all times',
      'be sure to',
      'only (?:ever )?(?:use|run|edit|write|modify|change|touch|deploy|commit|push|answer|reply|respond|call|read|work|speak|talk|output|return|install|import|merge|ask|send|make|create|delete|access|query|connect|suggest|recommend|cite|quote|format|print|log)',
    ].join('|') +
    ')\\b',
  'i',
);

/** Phrases that make a sentence a rule wherever they are. */
export const CONTAINS = new RegExp(
  [
    '\\byou must\\b',
    '\\byou (?:should|shall|have to|need to) (?:always|never)\\b',
    '\\byou (?:may|must|should|shall|can) not\\b',
    "\\byou (?:mustn'?t|shouldn'?t|can'?t|cannot)\\b(?! (?:see|find|know|tell|really|actually|easily|simply|just|quite|even|always)\\b)",
    "\\byou(?:'re| are) not (?:allowed|permitted|supposed) to\\b",
    '\\bnever,? ever\\b',
    '\\b(?:is|are) (?:strictly |absolutely )?(?:forbidden|prohibited|not allowed|not permitted|off[- ]limits)\\b',
    '\\bi (?:want|need) you to (?:always|never)\\b',
    '\\bat all times\\b',
    '\\bwithout exception\\b',
  ].join('|'),
  'i',
);

/**
 * Constructs that state a standing rule by themselves: a policy that lasts ("… is not to be shared",
 * "keep it that way", "no exceptions", "until further notice", "… is a no-go"), or an instruction to
 * keep something out of, away from or within something ("keep customer names out of the logs",
 * "stick to pnpm", "secrets stay out of your answers").
 */
export const STANDING = new RegExp(
  [
    '\\b(?:is|are) (?:not )?to be (?:\\w+ed|\\w+en|shared|kept|used|run|made|sent|done|left|put|written|shown)\\b',
    '\\bno exceptions?\\b',
    '\\bkeep (?:it|them|things) (?:that way|like that|as (?:is|they are))\\b',
    '\\buntil (?:further notice|I say otherwise|we say otherwise|I tell you otherwise)\\b',
    '\\b(?:keep|keeps|kept)\\b[^.;!?]{1,80}?\\b(?:out of|away from|off)\\b',
    '\\b(?:stay|stays|remain|remains) (?:well )?(?:out of|away from|clear of|off|free of)\\b',
    '\\bstick (?:to|with)\\b',
    '\\b(?:is|are) (?:strictly |still )?(?:frozen|locked) (?:until|for now|for the time being|indefinitely)\\b',
    '\\b(?:is|are) (?:strictly |still )?(?:read-only|hands-off|untouchable)\\b',
    '\\b(?:is|are|gets?|get) (?:always|never)\\b',
    '\\b(?:is|are) (?:a )?no-go\\b',
    // named as a rule: "the rule of thumb here: …", "as a matter of policy"
    '\\brule of thumb\\b|\\bas a matter of (?:policy|course)\\b',
    // a lasting fact to keep in mind: "remember that the legal team signs off on …"
    "^(?:please |and |also )?(?:remember|keep in mind|bear in mind|don'?t forget|do not forget) that\\b",
  ].join('|'),
  'i',
);

/** A state something is to be treated as, or kept in ("treat X as read-only", "keep X backwards compatible"). */
const STATE =
  '(?:read-only|off-limits|hands-off|frozen|immutable|untouchable|confidential|private|secret|sensitive|internal|append-only|compatible|backwards[- ]compatible|consistent|stable|short|brief|concise|simple|clean|tidy|minimal|secure|safe|readable|small|lean|focused|polite|formal|informal|friendly|professional|neutral|up to date|in sync|sorted|alphabetical)';

/** Prepositions that place a ban ("no emojis in …", "no force-pushes to …"). */
const PLACE =
  '(?:in|on|to|for|per|at|inside|outside|from|during|before|after|into|near|under|over|with|between|beyond)';

/** Verbs of writing and naming, for conventions in the passive ("dates are written as …"). */
const WRITTEN =
  '(?:written|named|formatted|spelled|spelt|tagged|prefixed|suffixed|capitali[sz]ed|indented|quoted|rounded|expressed|shown|displayed|given|dated|versioned|titled|label(?:l)?ed|kept|sorted|ordered|cased|abbreviated|phrased|worded|styled|numbered|signed)';

/** Adjectives that report a state, not a convention ("tests are flaky across the codebase"). */
const STATUS =
  '(?:flaky|slow|broken|fast|red|green|failing|down|up|fine|ok|okay|bad|good|great|messy|a mess|huge|big|old|outdated|stale|missing|empty|wrong|weird|odd|off|optional|available|enabled|disabled|deprecated|full|done|ready|busy|unclear|confusing|nice|ugly|buggy)';

/** Words that, after a bare "No", make it an answer or a report rather than a ban ("No idea why …"). */
const NO_REPORT =
  '(?:luck|idea|clue|problem|problems|worries|worry|way|thanks|rush|need|doubt|wonder|one|matter|change|changes|difference|progress|news|response|reply|answer|errors?|warnings?|failures?|issues?|results?|matches|hits|sign|trace|word|offen[cs]e|kidding|surprise|reason|chance|time|longer|more|less|sir|thank)';

/** A subject that is not a particular thing: a bare noun phrase or "our …" ("Commit messages …"). */
const BARE =
  "(?!(?:the|this|that|these|those|it|its|it's|i|i'm|i'll|we|you|he|she|they|there|here|my|his|her|their|a|an|some|one|what|which|who|how|why|where|when|if|let'?s|let|please|no|not|nothing|nobody|just|then|now|today|yesterday|maybe|thanks|every|each|all|any|anything|everything)\\b)(?:our )?[\\w-]+(?: (?!(?:i|we|you|he|she|they|it)\\b)[\\w-]+){0,2}";

/**
 * Shapes that are a standing rule by themselves (unless the sentence is anchored to a moment, see
 * {@link ONE_OFF}), matched at the start of a sentence or a clause: quitting a habit ("stop
 * suggesting X", "quit adding Y"), a ban without a verb ("no emojis in …", "no more than three …"),
 * "hands off X", "leave X alone", "treat X as read-only", "keep X backwards compatible", "X only",
 * an announced convention ("the convention here is …", "our house style is …", "we're a tabs shop"),
 * a negative wish ("I'd rather you didn't …"), a preference between two ("I prefer X over Y"), a
 * rule about where things go or how they are written ("commit messages go in …", "dates are
 * written as …", "nothing gets merged without …", "nobody touches X but me"), a requirement on a
 * class of what the assistant hands over ("timestamps I get from you should …", "whatever report
 * you draft ends with …"), a convention verb on a bare class ("sort imports alphabetically").
 */
export const SHAPES = new RegExp(
  [
    '^(?:stop|quit|cease|no more) \\w+ing\\b',
    `^no (?:more than \\w+ )?(?!${NO_REPORT}\\b)[\\w-]+(?: [\\w-]+){0,2}?(?=\\s*(?:[,;:!.—–-]|$)|\\s+(?:${PLACE}|anywhere|ever|whatsoever|allowed|please|unless|without)\\b)`,
    '^hands[- ]off\\b',
    '^leave\\b[^.;!?]{1,60}\\b(?:alone|untouched|as (?:it is|they are|is))\\b',
    `^treat\\b[^.;!?]{1,60}\\bas (?:${STATE})\\b`,
    `^(?:let'?s |let us )?keep (?!the (?:first|last|next|second|\\d+)\\b)[^.;!?]{1,60}\\b${STATE}\\b`,
    `^[\\w.+#/-]+(?: [\\w.+#/-]+)? only(?=\\s*(?:[,;:!.—–-]|$)|\\s+(?:in|for|on|inside|within|across|throughout)\\b)`,
    '^(?:the|our|my|team|house) (?:[\\w-]+ ){0,2}(?:convention|style|standard|policy|rule|norm|practice|guideline|default)s?(?: here| in this [\\w-]+| for [\\w-]+(?: [\\w-]+)?)? (?:is|are)\\b',
    "\\b(?:we(?:'re| are)|this is) an? [\\w-]+ (?:shop|house)\\b",
    "\\bI(?:'d| would) (?:rather|prefer)(?: it if)? (?:you|we) (?:not|didn'?t|did not|never|don'?t|do not|wouldn'?t|stopped|avoided)\\b",
    '\\b(?:I|we) (?:\\w+ly )?prefer (?!(?:this|that|the|your|these|those|it)\\b)[^.;!?]{1,50}\\b(?:over|instead of|rather than)\\b',
    `^(?:${BARE}|(?:all|every|each|any) [\\w-]+(?: [\\w-]+){0,2}) (?:go|goes|come|comes|belong|belongs) (?:in|into|inside|under|next to|alongside|in through|at the (?:top|bottom|start|end))\\b`,
    `^${BARE} (?:is|are) (?:always |only )?${WRITTEN} (?:as|in|with|using|like)\\b`,
    `^${BARE} (?:use|follow|include|start with|end with)\\b`,
    '^(?:nothing|nobody|no one)\\b(?! (?:\\w+ed|was|were|had|has|have|did|is|seems|happens|works|knows|changed)\\b)[^.;!?]{0,60}\\b(?:without|unless|until|but (?:me|us|you)|except|goes (?:in|into|to|out)|gets \\w+ed)\\b',
    ',\\s*(?:and |but )?never (?:in|on|as|to|into|with|via|through|from|by|the|a|an|inside|under)\\b',
    `^(?:(?:all|every|each|any) (?:new |single )?[\\w-]+|(?:(?:all|every|each|any)\\w*|whatever|whichever) [\\w-]+ you \\w+)(?: [\\w-]+){0,4} (?:gets?|needs?|requires?|includes?|contains?|carries|carry|has to|have to|must|should|goes|go|(?:starts?|ends?|begins?|opens?) with)\\b`,
    // a class of what the assistant hands over: "timestamps I get from you should be in UTC",
    // "tables you produce for me need a header row" (not a report: "code you write is buggy")
    `^${BARE} (?:that |which )?(?:(?:I|we) (?:get|receive) (?:back )?from you|you (?:give|send|hand|write|produce|make|draft|show|return|generate|create|prepare)(?: (?:me|us))?(?: for (?:me|us))?) (?:should|must|need|needs|has to|have to|(?:is|are)(?! (?:${STATUS})\\b)|go|goes|get|gets|include|includes|stay|stays|start|starts|end|ends|use|uses)\\b`,
    // a convention for a class of things, in the imperative: "round percentages to one decimal",
    // "sort imports alphabetically", "quote file paths in backticks" (not "round the total …")
    `^(?:round|format|sort|order|quote|prefix|suffix|name|tag|cite|capitali[sz]e|abbreviate|spell(?: out)?|indent|word|phrase|label|express|title|number|pad|align) (?![^.;!?]*\\b(?:this|that|these|those|here)\\b)(?!(?:the|it|its|them|my|your|our|his|her|their|a|an|one|me|us|him|up|down|out|all|every|each|any|some)\\b)[\\w.-]+(?: [\\w.-]+){0,2}(?= (?:as|in|with|to|by|after|before|under|over|using|like|on|into|from)\\b| \\w+ly\\s*[.!]?$|\\s*[.!]?$)`,
    // a habit that goes on: "keep using the v2 client", "keep writing tests first"
    "^(?:let'?s |let us )?keep (?:using|writing|following|putting|naming|sending|running|adding|asking)\\b",
    // who alone may: "only the on-call engineer may rotate the keys"
    '^only (?!(?:if|when|once|after|before|then|now|because)\\b)(?:the )?[\\w-]+(?: [\\w-]+){0,3} (?:may|can|should|gets? to|is allowed to|are allowed to)\\b',
    // a class treated as something: "treat customer IDs as personal data" (not "treat this as urgent")
    '^treat (?!(?:this|that|it|these|those|the|him|her|them|me)\\b)[^.;!?]{1,60}\\bas\\b',
    // where a class of new things goes: "put new tests under test/integration"
    '^(?:put|place|keep|store|save) (?:all |any )?(?:new|shared|future|generated|common) [\\w-]+(?: [\\w-]+)? (?:in|under|into|inside|next to)\\b',
  ].join('|'),
  'i',
);

/**
 * Where a sentence says it holds beyond the moment: from now on, for the rest of the session, in
 * this repository, unless I ask, until something lands, every time, for every X you write, for
 * anything that touches Y, throughout, across the codebase, per X, when you do Y, before doing Y.
 */
export const SCOPE = new RegExp(
  [
    '\\bfrom (?:now|here|today|this point)(?: on| onwards?)?\\b',
    '\\b(?:going|moving) forward\\b',
    '\\bhenceforth\\b',
    '\\bfor the rest of\\b',
    '\\b(?:every|each|any) time\\b',
    '\\b(?:whenever|wherever)\\b',
    // a class of occasions or of what the assistant hands over
    '\\b(?:whatever|whichever) [\\w-]+ (?:you|the user|they|we|someone|anyone)\\b',
    '\\b(?:I|we) (?:get|receive) (?:back )?from you\\b',
    '\\bunless (?:I|we|you|someone)\\b',
    '\\buntil (?:the \\w+(?: \\w+)? (?:lands|ends|ships|is (?:done|over|merged|finished))|further|I|we)\\b',
    '\\b(?:in|on|for|across) (?:this|the|our) (?:whole |entire )?(?:repo|repository|project|codebase|code base|team|conversation|chat|session|board)\\b',
    // a habit: every X you write, anything that touches Y, anything package-related
    '\\b(?:every|each|any|all)\\b[^.;!?]{0,40}\\b(?:you|we) (?:write|add|make|create|open|send|produce|touch|use|run|give|deploy|commit|push|generate|answer|reply|print|log)\\b',
    '\\b(?:anything|everything) (?:that|which|related|to do with)\\b|\\b(?:anything|everything) [\\w-]+-related\\b',
    '\\b(?:in|for|to) (?:any|every|all) (?:output|answers?|replies|responses|commits?)\\b',
    '\\bthroughout\\b|\\beverywhere\\b|\\bby default\\b|\\bas a rule\\b|\\beven (?:if|when|though|for)\\b|\\bregardless\\b',
    // a condition that recurs: "if you ever …", "when the ticket is in German", "on Fridays"
    '\\bif (?:you|we|anyone|someone) ever\\b',
    // (not an event that happens once: "ping me when the deploy is done")
    '\\bwhen(?:ever)? (?:the|a|an|someone|anyone|a user|the user|they) [\\w-]+(?: [\\w-]+)? (?:(?:is|are)(?! (?:done|ready|finished|over|complete|completed|back|up|merged|fixed|green|live|out)\\b)|has|have|writes?|asks?|comes?|fails?|breaks?|needs?)\\b',
    '\\bon (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends)\\b',
    // a class of new things: "for anything new"; "for every incident report" after a verb of method
    '\\bfor (?:anything|everything|all) new\\b',
    '\\b(?:use|follow|apply|include|attach) [^.;!?]{0,40}\\bfor (?:every|each|any|all) (?:new )?[\\w-]+(?: [\\w-]+)?\\b(?! (?:of|in|from|under) (?:the|that|this|these|those)\\b)',
    // what the assistant does as a habit: the code you write, anything you hand me
    "(?<!\\b(?:can|could|would|will|do|did|if|thank|are|have|should|may|might|when|whenever) )\\byou(?:'ll)? (?:write|produce|hand|give|send|generate|create|add|make|touch|suggest|propose|mention|output|commit|return|push|deploy|build|draft|post|print|log|edit|change|ship|show|use|open|cite|quote|release|merge|install|recommend|paste)\\b",
    "\\bwhen(?:ever)? you (?!(?:get|have|are|'re|can|could|finish|find|see|said|did)\\b)\\w+",
    '\\b(?:before|after) (?:\\w+ing|you|we)\\b',
    '\\bper (?!(?:cent|second|minute|hour|day|week|month|year|request|user)\\b)\\w+',
    // a generic set: in all your answers, for every statistic, at the start of each answer
    '\\b(?:all|any|every) future\\b|\\bin (?:the )?future\\b',
    '\\b(?:in|to|on|of|with|across|for (?=\\w+ (?:your|our)\\b)) (?:all|every|each|any)(?: of)?(?: your| our)? (?!(?:the|these|those|this|that|other|one|two|three|four|five|six|ten|\\d+)\\b)[\\w-]+\\b(?! (?:of|in|from|under) (?:the|that|this|these|those)\\b)',
    // a contrast: X, not Y; X instead of Y
    ',\\s*not (?:\\w+ )?\\w+|\\b(?:instead of|rather than)\\b|\\bonly (?:on|in|via|through|from|during|with|at)\\b',
  ].join('|'),
  'i',
);

/** A direct object that is an open set ("write all docs …", "use every …"): a standing scope. */
export const OPEN_OBJECT =
  /^(?!(?:run|check|fix|test|review|look|scan|search|find|update|rename|delete|remove|read|list|count|revert|restart|retry|rerun|try|debug|grep|explain|summarize|profile|compare|close|merge|clean|migrate|convert|move|copy|reformat)\b)[\w-]+ (?:all|every|each|any) (?!(?:the|these|those|this|that|other|one|two|three|four|five|six|ten|\d+)\b)[\w-]+\b(?! (?:of|in|from|under) (?:that|this|these|those)\b)/i;

/** "here" after a verb ("we use Postgres here", "the convention here"), not "here is …". */
export const HERE = /\S \bhere\b(?! (?:is|are)\b|'s\b)/i;

/** Quantifiers that make a wish or an obligation a standing one ("all code comments in English"). */
export const QUANTIFIED = /\b(?:every|each|all|any|anything|everything)\b/i;

/**
 * How a user directs the assistant: an imperative verb first or `let's`; or (stronger, enough with a
 * quantifier) a modal of obligation, a wish for how things are done, a rule of the form "every X
 * gets / needs …", "X are shown in Y", "that is the order …".
 */
export const IMPERATIVE =
  /^(?:let'?s |let us )?(?:use|keep|stay|stick|tag|cc|ping|avoid|prefer|write|answer|reply|respond|put|add|include|leave|send|ask|check|run|format|name|call|mention|cite|quote|show|log|print|commit|push|deploy|test|document|comment|mark|label|route|store|save|treat|default|pin|lock|wrap|sign|review|squash|rebase|branch|prefix|suffix|end|start|begin|open|close|report|notify|flag|cap|limit|round|convert|express|spell|refer|address|reference|stage|merge|release|ship|bump|version|translate|respect|follow|obey|honor|honour|remember|assume|lead|spare|skip|give|draft|phrase|word|structure|sort|order|group|indent|capitalize|capitalise|link|attach|explain|describe|greet|stop|quit|be|make|take|note|drain|do|get|set|create|build|post|file|raise|back up|snapshot|announce|loop|request|wait|verify|validate|confirm|clear|update|upgrade|pull|lint|escalate|quarantine|inform|warn|tell)\b/i;

/** A noun compound that only looks like an imperative ("Commit messages in this repo are a mess."). */
export const NOUN_START =
  /^[\w-]+ (?!(?:the|a|an|all|every|each|any|your|my|our|it|them|this|that|these|those|me|us|to|in|on|with|for)\b)[\w-]+(?: [\w-]+){0,4} (?:is|are|was|were|go|goes|get|gets|have|has|look|looks|need|needs)\b/i;

export const OBLIGATION = new RegExp(
  [
    '\\b(?:should|must|shall|ought to|needs? to|has to|have to)\\b',
    "\\b(?:I'?d like|I would like|I want|I prefer|I'?d prefer|I expect|we want|we prefer|we expect|I'?d rather|I would rather)\\b(?! to (?:know|understand|see|look|check|ask))",
    "\\byou(?:'ll| will)? (?:want|need|have) to\\b",
    '\\bI (?:need|want|expect) (?=(?:all|every|each|any) (?!the\\b|of\\b))',
    '^(?:every|each|all|any) (?:new |single )?[\\w-]+(?: [\\w-]+)? (?:gets?|needs?|requires?|must|should|has to|have to|goes|go|is to|are to)\\b',
    '\\b(?:is|are) (?:always |only )?(?:shown|written|kept|given|formatted|named|stored|logged|reported|quoted|expressed|rounded|sent|done)\\b',
    '\\bthat is the (?:order|rule|way|process|convention|policy)\\b',
  ].join('|'),
  'i',
);

/** A statement of how things are here: "Prices are in euros …", "we use Postgres …", "deploys happen …". */
export const DECLARATIVE = new RegExp(
  [
    `^${BARE} (?:(?:is|are)(?! (?:${STATUS})\\b)|stays?|lives?|happens?|runs?|ships?|uses?|needs?|requires?)\\b`,
    '^(?:nobody|no one) (?!(?:knows|cares|seems|remembers|likes|wants|understands|uses)\\b)\\w+s\\b',
    '^(?:anything|everything|all|every|each|any)\\b[^,;]{0,60}\\b(?:stays?|goes|go|gets?|is|are|needs?|belongs?|lives?)\\b',
    '^we (?:use|go with|write|prefer|work in|deploy|ship|run|do|keep|name|format|follow|build|speak|answer|reply)\\b',
  ].join('|'),
  'i',
);

/** Verbless sentences with a scope word: "British spelling throughout, please." */
export const VERBLESS_SCOPE =
  /^(?![^.;!?]*\b(?:is|are|was|were|be|been|has|have|had|do|does|did|\w+ed|\w+'s|\w+'re|there)\b)(?:[\w-]+ ){1,5}(?:throughout|everywhere|across the board)\b/i;

/** Words that make a sentence a musing rather than an instruction. */
export const HEDGE =
  /\b(?:probably|maybe|perhaps|at some point|I think|I guess|I wonder|sadly|apparently|I suppose|might|could we|would be nice|someday|eventually)\b/i;

/**
 * Anchors to a moment that make a sentence a one-off request or a report: now, today, this time, for
 * this run, just this once, again, a past tense ("we used", "was", "went").
 */
export const ONE_OFF = new RegExp(
  [
    "\\b(?:it|this|that)(?:'s| is) \\w+ing\\b|\\b(?:this|that|it) (?:up|down|out)\\b",
    '\\b(?:later|right now|for now|today|tonight|tomorrow|yesterday|this (?:time|morning|afternoon|evening|week|sprint)|last (?:night|week|month|year|time|quarter|spring|summer|autumn|fall|winter|sprint)|just (?:this|once)|this one|again|in (?:days|weeks|months|years))\\b',
    '\\bnow\\b(?! on\\b| onwards?\\b)(?<!\\bfrom now)',
    '\\bfor this (?!(?:whole|entire|project|repo|repository|codebase|code base|team|session|conversation|chat|client|company|product|app)\\b)[\\w-]+',
    '\\b(?:was|were|did|had|went|got|ran|made|took|came|saw|broke|wrote|said|told|gave|found|used to|decided)\\b',
    // a past tense ("we changed"), not a present one that ends the same way ("we need", "we proceed")
    '(?<!\\b(?:rather|prefer|wish|if) )\\b(?:I|we|he|she|they|it|you) (?!\\w*eed\\b)\\w+ed\\b',
  ].join('|'),
  'i',
);

export const REVOKES = new RegExp(
  [
    '\\byou (?:may|can|could) now\\b',
    "\\byou(?:'re| are) now (?:allowed|permitted|free) to\\b",
    "\\b(?:it'?s|it is) (?:now )?(?:ok|okay|fine|alright|allowed) (?:now )?(?:to|for you to)\\b",
    '\\bfeel free to\\b',
    '\\bno longer (?:need|have) to\\b',
    "\\b(?:don'?t|do not) (?:need|have) to\\b.*\\b(?:anymore|any more|any longer)\\b",
    '\\b(?:forget|ignore|disregard|drop|lift|remove|cancel|scrap) (?:about )?(?:the|my|that|this|your) (?:earlier |previous |old |last )?(?:rule|instruction|constraint|restriction|requirement)\\b',
    '\\bno longer (?:applies|required|necessary|needed|in force)\\b',
  ].join('|'),
  'i',
);
