/**
 * Natural English prose written for the estimator benchmark: essays, a short story, instructions,
 * a letter and a news-style report, so the vocabulary, punctuation and sentence lengths vary the
 * way real chat messages and documents do. Not generated: the text is meant to read like English.
 */
export const ENGLISH_PROSE = `The Canal at Dawn

Long before the railways reached the valley, the canal was the quickest way to move anything heavier than a letter. Coal came down from the hills in narrow boats pulled by horses, and grain went back up in the same boats, which were scrubbed out between loads by the boatmen's children. The towpath was never quiet. Carters argued with lock-keepers, dogs chased the horses, and on summer evenings whole families walked along the water to watch the boats queue at the bottom of the flight of seven locks.

The locks themselves were a marvel of patient engineering. Each chamber was built of local sandstone, dressed by hand and laid without mortar below the waterline, because the engineers believed that lime would wash out and leave gaps. They were right: two centuries later, the walls still stand, although the gates have been replaced at least a dozen times. A boat entering the bottom lock would rise nearly sixty feet by the time it left the top one, and the whole passage took a skilled crew a little under two hours.

When the railway finally arrived, the canal company cut its tolls in half, then in half again. It was not enough. Within a decade the boats carried only what the trains would not: manure, broken stone, and the occasional load of timber too long for a wagon. By the turn of the century the water had turned green, and the lock-keeper's cottage stood empty with its windows boarded up.

What saved the canal, in the end, was not commerce but leisure. After the Second World War, a handful of enthusiasts bought an old boat, cleared the weeds from the lower pound, and began to take visitors on short trips. They charged a shilling a head and gave the money to the repair fund. It took them thirty years to reopen the whole line, working mostly at weekends, but today the canal carries more boats each summer than it did in its busiest year of trade.

A Note on Bread

Most people who bake bread at home make the same mistake at the start: they are in a hurry. Yeast is a living thing, and it works at its own pace, which depends far more on the temperature of your kitchen than on the recipe. A dough that doubles in an hour on a warm July afternoon may need three hours on a cold morning in February. The recipe's timings are a guide, not a promise.

Begin with good flour. Strong white bread flour has more protein than plain flour, and protein is what gives the dough its stretch. Mix five hundred grams of flour with ten grams of salt and seven grams of dried yeast, keeping the salt and the yeast on opposite sides of the bowl until you add the water, because salt in direct contact can slow the yeast down. Add about three hundred and fifty millilitres of lukewarm water and stir until there is no dry flour left.

Now knead. Push the dough away from you with the heel of your hand, fold it back, turn it a quarter, and repeat. At first it will be sticky and ragged; resist the urge to add more flour. After eight or ten minutes it should feel smooth and springy, and a small piece stretched between your fingers should become thin enough to let light through without tearing. Bakers call this the windowpane test.

Leave the dough in a lightly oiled bowl, covered with a damp cloth, until it has roughly doubled. Knock it back, shape it into a loaf, and let it rise again in a tin. Bake it at two hundred and twenty degrees for about thirty minutes, until the crust is deep brown and the loaf sounds hollow when you tap the bottom. Then comes the hardest part of the whole process: let it cool for at least an hour before you cut it.

The Lighthouse Keeper's Daughter

Mara had lived on the island for eleven years, which was every year she could remember. She knew the number of steps in the tower (one hundred and twelve), the name of every seabird that nested on the western cliffs, and the exact sound the fog signal made when its reed was cracked and needed replacing. What she did not know, until the autumn she turned twelve, was that her father was afraid of the dark.

She discovered it by accident. A storm had knocked out the generator, and the backup lamp had failed to light. Her father stood at the bottom of the tower with a torch in one hand and the spare mantle in the other, and he did not move. His face, in the thin yellow beam, was the colour of candle wax.

"I'll go," Mara said.

He looked at her for a long moment, as if he were seeing someone he had not met before. Then he handed her the torch. "Count the steps," he said. "If you count, you always know where you are."

She counted. At fifty the wind was screaming through the gaps in the window frames; at eighty the whole tower seemed to sway; at one hundred and twelve she pushed open the hatch into the lamp room, where the great lens sat silent and dark like a sleeping animal. Her hands were shaking so badly that it took her three attempts to fit the mantle. When the light finally caught and the lens began to turn, throwing its beam out across the black water, she sat down on the floor and laughed until she cried.

Her father never mentioned that night again. But from then on, whenever a storm was coming, he would knock on her door and ask, quite seriously, whether she would help him keep the light.

Why Meetings Run Long

Anyone who has worked in an office for more than a few weeks has sat through a meeting that should have been an email. It is tempting to blame the people involved, but the causes are usually structural. Meetings run long because nobody owns the clock, because the agenda is a list of topics rather than a list of decisions, and because the cost of an extra ten minutes is spread so thinly across the attendees that no single person feels it.

The simplest fix is to write down, before the meeting starts, what decision it exists to make. If there is no decision, there should probably be no meeting; a shared document or a short recorded update will do the job better. If there is a decision, the agenda should lead towards it, and the person chairing should be willing to stop the discussion once everyone has been heard, even if not everyone agrees.

A second fix is to make the cost visible. Some teams put a timer on the screen; others keep the standard length at twenty-five minutes instead of thirty, so that people can get to their next commitment without running down the corridor. None of these tricks is magic, and all of them decay over time as habits creep back. But a team that reviews its meetings every few months, asking which ones could be shorter, merged, or cancelled outright, will usually find that it has given itself back several hours a week.

A Letter to a Former Teacher

Dear Mrs. Okafor,

You probably do not remember me. I was in your chemistry class about fifteen years ago, the quiet boy at the back who never handed in his homework on time. I am writing because last week I defended my doctoral thesis, and during the celebration afterwards someone asked me when I first became interested in science. Without thinking, I told them about you.

In particular, I told them about the afternoon you kept me behind after class. I was sure I was in trouble. Instead, you gave me a book about the history of the periodic table and said that you thought I would enjoy it more than the textbook. You were right. I read it twice that week, and then I started reading everything else I could find. I still have the book; it sits on the shelf above my desk, its spine held together with tape.

I do not think I ever thanked you properly, so I am doing it now. Thank you for noticing a student who was trying very hard not to be noticed. Thank you for assuming that he was bored rather than lazy. And thank you for that book, which turned out to be the first step on a very long road.

With gratitude and best wishes,
Daniel

Council Approves New Cycle Routes

The city council voted on Tuesday evening to approve a network of protected cycle lanes connecting the railway station, the university, and the three largest residential districts on the north side of the river. The plan, which passed by nineteen votes to eleven after a debate lasting more than four hours, will cost an estimated twelve million pounds over five years, most of it covered by a regional transport grant.

Supporters argued that the routes would reduce congestion and improve air quality near schools, pointing to figures showing that nearly a third of car journeys in the city are shorter than two miles. "We are not asking anyone to give up their car," said the councillor who proposed the scheme. "We are asking whether a parent who would like their child to cycle to school should have a safe way to let them do it."

Opponents raised concerns about the loss of parking spaces on several busy shopping streets, and a group of traders has already said it will seek a judicial review. The council has promised a consultation on the detailed design of each section before construction begins, which is expected early next spring.

On Learning a Language as an Adult

Children seem to absorb languages effortlessly, and adults often conclude that they have simply missed their chance. The research is less discouraging than the folklore. Adults are, in many ways, better learners than children: they can study grammar deliberately, they understand how to use a dictionary, and they can draw on the vocabulary of the languages they already speak. What they usually lack is not ability but time, and the willingness to sound foolish.

That second obstacle is the harder one. A child who mispronounces a word is corrected gently and moves on; an adult who does the same may feel embarrassed enough to stop speaking altogether. The most successful adult learners tend to be the ones who have made peace with their mistakes. They speak early and often, they ask people to correct them, and they treat every misunderstanding as information rather than failure.

Consistency matters more than intensity. Twenty minutes a day, every day, will take most people further in a year than a week-long course followed by months of nothing. Listening to podcasts on the way to work, labelling objects around the house, keeping a short diary in the new language: none of these is glamorous, but together they add up. And at some point, usually without warning, a learner realises that they have understood an entire conversation without translating it in their head. That moment is worth every awkward sentence that came before it.

The Repair Shop

There is a small shop on the corner of Mill Street that repairs almost anything. The sign above the door simply says "Repairs", and the window is crowded with clocks, radios, sewing machines, and a rocking horse missing one ear. The owner, a tall man in his seventies called Mr. Petrov, works at a bench near the back, under a lamp he rescued from a factory that closed in the nineteen-eighties.

He charges very little, and he refuses work he thinks is not worth doing. "If it costs more to fix than to replace, I tell you," he says. "But most things are not broken. They are only tired." He has a theory that modern appliances fail on purpose, and he can talk for half an hour about capacitors that were chosen to last exactly one year past the warranty. Whether or not he is right, his customers keep coming back, carrying kettles and toasters and, once, an entire church organ pipe that had been dented by a falling ladder.

When asked what he will do when he retires, he laughs. "Retire from what? This is not work. This is conversation with machines."
`;
