"""Indeclinables every reader meets (particles, conjunctions, adverbs, postpositions), as readings of
their own even when no installed dictionary marks them `ind.` (MW's `api`, `iti` do not), and the
interrogatives that -cit, -cid, -cana and -api make indefinite (kadācit, kathaṃcit, kvacit, kiṃcid).
Written for pramana from the grammars' lists of avyayas; IAST, converted to SLP1 once."""

from __future__ import annotations

from pramana.text.schemes import Scheme, convert

_IAST = """
ca vā na api eva iti iva hi tu atha atho athavā yadvā uta vai nu nanu khalu kila sma ha ced cet yadi yadyapi
tathāpi tarhi kiṃtu kintu parantu kimu kim u mā no nahi bata hanta aho hā he bhoḥ bhos are ayi aye dhik svasti
svāhā namas om tathā yathā evam ittham katham kathaṃcit kathaṃcana kathamapi tadā yadā kadā sadā sarvadā
ekadā anyadā kadācit kadācana kadāpi tatra yatra kutra atra anyatra sarvatra ekatra iha kva kvacit kvacana
kvāpi kutracit tatas yatas kutas atas itas sarvatas kutaścit punar antar prātar bahis uccais nīcais śanais
muhus bhūyas prāyas prāyaśas sahasā sadyas adya śvas hyas idānīm adhunā samprati saṃprati tūrṇam śīghram
kṣipram drutam nityam satatam ciram cirāt cirasya bhṛśam atīva ati su alam saha vinā ṛte prati anu ā
adhas upari puras purā purastāt paścāt agratas pṛṣṭhatas antarā antareṇa abhitas paritas samantāt
samantatas ubhayatas pṛthak nānā viśeṣatas sākṣāt kāmam prakāmam yathākāmam yathāvat yathāvidhi yathārtham
yathāśakti yathāśāstram yathānyāyam samyak tiryak prāk kevalam svayam mithas parasparam param tāvat yāvat
nāma nūnam avaśyam dhruvam tūṣṇīm mṛṣā vṛthā mudhā sākam samam sārdham yugapat bahuśas śataśas sahasraśas
ekaśas anekaśas kramaśas sakṛt asakṛt dvis tris bahudhā dvidhā tridhā sarvathā anyathā itarathā ubhayathā
jātu pūrvam sāyam divā naktam anudinam pratidinam pratyaham nityaśas atyantam nitarām sutarām īṣat manāk
kiṃcit kiñcit anantaram tadanantaram akasmāt tataḥ sahitam iti ha vat iva eva ca tu hi api naiva
anyonyam itaretaram kutracana yathā tathā atha kiṃ kaccit kaccid yathāyatham yathāyogam yathākramam
kṣaṇam muhūrtam bhūyo dūram dūrāt uccaiḥ ārāt samīpatas antikam tūrṇaṃ śanaiḥ punaḥ antaḥ prātaḥ bahiḥ
adhunā purataḥ pṛṣṭhataḥ upariṣṭāt adhastāt dakṣiṇatas uttaratas pūrvatas paścimatas madhye abhyāśe
pūrvam
"""
INDECLINABLES: frozenset[str] = frozenset(convert(word, Scheme.IAST, Scheme.SLP1) for word in _IAST.split())
# -cit, -cid, -cana, -api after an interrogative make it indefinite: kaścit, kiṃcid, kadācana, ko 'pi.
INDEFINITE_SUFFIXES = ("cit", "cid", "cic", "cij", "ciY", "cin", "ciM", "cana", "api", "pi")
INTERROGATIVE_ADVERBS: frozenset[str] = frozenset(
    convert(word, Scheme.IAST, Scheme.SLP1)
    for word in ["kadā", "katham", "kva", "kutra", "kutas", "kati", "kiyat", "kim"]
)
