"""Hand-written test cases for verse matching: quotes as lecture transcripts render them, and
famous Sanskrit (and English) that is not from the Gita, which must never match confidently."""

from __future__ import annotations

# The vedabase-mcp spec's real pairs (§9.3), from a lecture transcript.
SPEC_PAIRS = [
    ("man manā bhava mad-bhākto mad-yajī mam namāskuru", "BG 9.34"),
    ("mā mā evaṁ sa jīva-loka jīva-bhūta-sanātana", "BG 15.7"),
    ("kārama-ñeva-dhikāra-ste māpaleṣu-dhikāṣṭhana", "BG 2.47"),
]

# Famous verses as a speech-to-text system writes them when a speaker recites them.
LECTURE_QUOTES = [
    ("yada yada hi dharmasya glanir bhavati bharata", "BG 4.7"),
    ("paritranaya sadhunam vinashaya cha dushkritam", "BG 4.8"),
    ("sarva dharman pari tyajya mam ekam sharanam braja", "BG 18.66"),
    ("aham tvam sarva papebhyo mokshayishyami ma shuchah", "BG 18.66"),
    ("dehino smin yatha dehe kaumaram yovanam jara", "BG 2.13"),
    ("na jayate mriyate va kadachin", "BG 2.20"),
    ("vasamsi jirnani yatha vihaya navani grhnati naro parani", "BG 2.22"),
    ("daivi hy esha guna mayi mama maya duratyaya", "BG 7.14"),
    ("mam eva ye prapadyante mayam etam taranti te", "BG 7.14"),
    ("bahunam janmanam ante gyanavan mam prapadyate", "BG 7.19"),
    ("vasudevah sarvam iti sa mahatma su durlabhah", "BG 7.19"),
    ("patram pushpam phalam toyam yo me bhaktya prayachhati", "BG 9.26"),
    ("ananyas chintayanto mam ye janah paryupasate", "BG 9.22"),
    ("aham sarvasya prabhavo mattah sarvam pravartate", "BG 10.8"),
    ("sarvasya chaham hridi sannivishto", "BG 15.15"),
    ("vedaish cha sarvair aham eva vedyo", "BG 15.15"),
    ("mam evaishyasi satyam te pratijane priyo si me", "BG 18.65"),
    ("prakriteh kriyamanani gunaih karmani sarvashah", "BG 3.27"),
    ("tad viddhi pranipatena pariprashnena sevaya", "BG 4.34"),
    ("matra sparshas tu kaunteya shitoshna sukha dukha dah", "BG 2.14"),
    ("anta kale cha mam eva smaran muktva kalevaram", "BG 8.5"),
    ("yam yam vapi smaran bhavam tyajaty ante kalevaram", "BG 8.6"),
    ("bhoktaram yajna tapasam sarva loka maheshvaram", "BG 5.29"),
    ("yoginam api sarvesham mad gatenantaratmana", "BG 6.47"),
    ("tesham satata yuktanam bhajatam priti purvakam", "BG 10.10"),
    ("dadami buddhi yogam tam yena mam upayanti te", "BG 10.10"),
    ("janma karma cha me divyam evam yo vetti tattvatah", "BG 4.9"),
    ("dhyayato vishayan pumsah sangas teshupajayate", "BG 2.62"),
    ("yad yad acharati shreshthas tat tad evetaro janah", "BG 3.21"),
    ("yatra yogeshvarah krishno yatra partho dhanur dharah", "BG 18.78"),
    ("urdhva mulam adhah shakham ashvattham prahur avyayam", "BG 15.1"),
    ("dharma kshetre kuru kshetre samaveta yuyutsavah", "BG 1.1"),
    ("brahma bhutah prasannatma na shochati na kankshati", "BG 18.54"),
    ("bhaktya mam abhijanati yavan yash chasmi tattvatah", "BG 18.55"),
    ("nainam chindanti shastrani nainam dahati pavakah", "BG 2.23"),
    ("yoga sthah kuru karmani sangam tyaktva dhananjaya", "BG 2.48"),
    ("mayadhyakshena prakritih suyate sa characharam", "BG 9.10"),
    ("avajananti mam mudha manushim tanum ashritam", "BG 9.11"),
    ("api chet su duracharo bhajate mam ananya bhak", "BG 9.30"),
    ("kaunteya pratijanihi na me bhaktah pranashyati", "BG 9.31"),
    ("Krishna says, sarva dharman parityajya mam ekam saranam vraja, so we have to surrender", "BG 18.66"),
    ("In the Gita it is said yada yada hi dharmasya, you see", "BG 4.7"),
    ("मन्मना भव मद्भक्तो मद्याजी मां नमस्कुरु", "BG 9.34"),
    ("कर्मण्येवाधिकारस्ते मा फलेषु कदाचन", "BG 2.47"),
]

# Sanskrit that is famous but not from the Bhagavad Gita, and plain English. None of these may
# come back as a confident match.
NOT_GITA = [
    "hare krishna hare krishna krishna krishna hare hare hare rama hare rama rama rama hare hare",
    "om bhur bhuvah svah tat savitur varenyam bhargo devasya dhimahi dhiyo yo nah prachodayat",
    "om namo bhagavate vasudevaya",
    "om purnam adah purnam idam purnat purnam udachyate",
    "asato ma sad gamaya tamaso ma jyotir gamaya mrityor mamritam gamaya",
    "om ajnana timirandhasya jnananjana shalakaya chakshur unmilitam yena tasmai sri gurave namah",
    "nama om vishnu padaya krishna preshthaya bhu tale",
    "sarve bhavantu sukhinah sarve santu niramayah",
    "janmady asya yato nvayad itaratas charthesv abhijnah svarat",
    "dharmah projjhita kaitavo tra paramo nirmatsaranam satam",
    "harer nama harer nama harer namaiva kevalam kalau nasty eva nasty eva",
    "trinad api sunichena taror api sahishnuna amanina manadena kirtaniyah sada harih",
    "ceto darpana marjanam bhava maha davagni nirvapanam",
    "vancha kalpa tarubhyas cha kripa sindhubhya eva cha patitanam pavanebhyo",
    "jaya radha madhava kunja bihari",
    "gurur brahma gurur vishnur gurur devo maheshvarah",
    "om namah shivaya",
    "vande gurun isha bhaktan isham ishavataraka",
    "The quick brown fox jumps over the lazy dog while the band plays on.",
    "So today we will talk about how to organise your week and stay productive at work.",
    "Please remember to bring your notebooks to the next class on Thursday afternoon.",
    "The committee approved the budget after a long discussion about maintenance costs.",
]
