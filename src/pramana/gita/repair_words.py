"""The English words a lost "qu" is restored from, and the real words it must not touch.

`Q_WORDS` are the words of the intact translations (Prabhupada's and Purohit's, which kept their
"qu") that contain "qu", plus common English "qu" words and their forms that the damaged texts
need (checked against the texts by hand). A damaged text's word is restored when it is one of
these with one "qu" taken out and is not itself an English word.

The English words that equal a `Q_WORDS` word less its "qu" are listed in two sets (the tests
check both against the intact texts): `WORDS_WITHOUT_QU` are used by the intact translators far
more often than their "qu" partner ("it" and "quit"), so they are left alone; `RARE_WORDS_WITHOUT_QU`
are real words that a lost "qu" explains as well ("ake" for "quake", "vanish" for "vanquish"), so
they are left as they are and reported as possibly damaged. Dictionary rarities that no text here
uses ("coner", "ite", "seel", "unie", "reest") count as damaged: each was a lost "qu" in the data.
"""

from __future__ import annotations

_Q_WORD_LIST = """
acquaint acquaintance acquaintances acquainted acquiesce acquiesced acquiescence acquire acquired
acquirement acquirer acquires acquiring acquisition acquisitions acquisitive acquisitiveness acquit
acquittal acquitted adequacy adequate adequately antiquated antique antiquities antiquity aquatic
aquatics aqueduct aqueous banquet banquets bequeath bequeathed bequest bouquet boutique colloquial
conquer conquerable conquered conquering conqueror conquerors conquers conquest conquests
consequence consequences consequent consequential consequently critique delinquency delinquent
disqualified disqualify disquiet earthquake earthquakes eloquence eloquent eloquently enquire
enquired enquirer enquirers enquires enquiries enquiring enquiry equability equable equableness
equal equaled equaling equalise equalised equalises equalising equality equalization equalize
equalized equalled equalling equally equalness equals equanimity equanimous equanimously equate
equated equates equating equation equations equator equestrian equidistant equilibrium equinox equip
equipment equipments equipoise equipoised equipped equitable equity equivalence equivalent
equivalents equivocal equivocation etiquette exquisite exquisitely frequency frequent frequented
frequently inadequacy inadequate inadequately inconsequential inequalities inequality inequally
infrequent infrequently iniquities iniquity inquire inquired inquirer inquirers inquires inquiries
inquiring inquiry inquisitive inquisitiveness liquefied liquefy liquid liquids liquor liquors mosque
oblique obsequies obsequious opaque palanquin palanquins physique picturesque plaque quaffs quake
quaked quakes quaking qualification qualifications qualified qualifies qualify qualifying
qualitative qualitatively qualities quality qualityless qualm qualms quantitative quantitatively
quantities quantity quantum quarrel quarreled quarreling quarrelled quarrelling quarrels quarrelsome
quarter quarterly quarters queen queens queer quell quelled quench quenched quenches quenching
queried queries query querying quest question questionable questioned questioner questioners
questioning questions quests quick quicken quickened quickens quicker quickest quickly quickness
quiescence quiescent quiet quieted quieten quietened quieter quietest quietly quietness quiets
quietude quintessence quintessential quit quite quits quitted quitting quiver quivered quivering
quivers quo quota quotation quotations quote quoted quotes quoting relinquish relinquished
relinquisher relinquishes relinquishing relinquishment request requested requesting requests require
required requirement requirements requires requiring requisite requisites sequel sequels sequence
sequences sequential sequentially squander squandered square squared squarely squares squeeze
squeezed subsequent subsequently technique techniques tranquil tranquility tranquillity tranquilly
ubiquitous ubiquity unacquainted unacquired unconquerable unconquered unequal unequaled unequalled
unequally unique uniquely uniqueness unqualified unqualifiedly unquestionable unquestionably
unquestioned unquestioning unvanquished vanquish vanquished vanquisher vanquishes vanquishing
"""
Q_WORDS: frozenset[str] = frozenset(_Q_WORD_LIST.split())

WORDS_WITHOUT_QU: frozenset[str] = frozenset({"alms", "eating", "it", "its", "o"})

RARE_WORDS_WITHOUT_QU: frozenset[str] = frozenset(
    {"ake", "ell", "est", "ick", "sander", "vanish", "vanished", "vanisher", "vanishes", "vanishing"}
)
